import { useEffect } from 'react';
import { useT } from '@/lib/i18n';

/**
 * The document title of a member page: its words come with its chunk, so the page sets the title
 * (the layout leaves these paths to it, app/routeMeta.ts `ownTitle`).
 */
export function usePageTitle(title: string): void {
  const t = useT();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
}
