import { useQuery } from '@/hooks/useQuery';
import { getPageSwitch } from '@/lib/system';
import type { PageSwitch } from '@/lib/api/types';

const DEFAULTS: PageSwitch = { grayPageList: [], use1i8n: true, productSearch: true };

/** The server's page switches (grey pages, language switch, product search); defaults on failure. */
export function usePageSwitch(): PageSwitch {
  const q = useQuery('page-switch', (signal) => getPageSwitch(signal));
  return q.data ?? DEFAULTS;
}

/** Whether a page shows in grey: listed by path, by page code, or "all". */
export function isGrayPage(list: string[], pathname: string, pageCode: string): boolean {
  return list.some((p) => p === 'all' || p === '*' || p === pathname || p === pageCode);
}
