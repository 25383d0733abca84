import { useEffect } from 'react';
import { useSettings } from '../lib/settings';

/** Keeps the tab's title and icon in step with the site settings (name, uploaded favicon). */
export function SiteHead() {
  const { site } = useSettings();
  useEffect(() => {
    document.title = site.name;
  }, [site.name]);
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    link.href = site.favicon || '/icon.svg';
    link.type = site.favicon ? '' : 'image/svg+xml';
  }, [site.favicon]);
  return null;
}
