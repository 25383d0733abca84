import { useEffect } from 'react';
import { useSettings } from '../lib/settings';

/** Keeps the tab's icon in step with the site settings (the pages set the title: lib/page-title.ts). */
export function SiteHead() {
  const { site } = useSettings();
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    link.href = site.favicon || '/icon.svg';
    link.type = site.favicon ? '' : 'image/svg+xml';
  }, [site.favicon]);
  return null;
}
