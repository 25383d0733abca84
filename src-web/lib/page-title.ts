import { useEffect } from 'react';
import { useSettings } from './settings';

/**
 * Sets the tab's title for the page being shown: "<page> · <site name>", in the reader's
 * language (the caller translates it), or the site name alone for the home page.
 */
export function usePageTitle(title: string | null | undefined): void {
  const { site } = useSettings();
  useEffect(() => {
    document.title = title ? `${title} · ${site.name}` : site.name;
  }, [title, site.name]);
}
