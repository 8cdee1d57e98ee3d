import type { MessageKey } from '@/lib/i18n';

/** Route metadata (spec: level for slide direction, title, page code). */
export interface RouteMeta {
  level: number;
  title: MessageKey | null;
  pageCode: string;
}

export function routeMeta(pathname: string): RouteMeta {
  if (pathname === '/') return { level: 1, title: null, pageCode: 'index' };
  if (pathname === '/menu') return { level: 2, title: 'menu.title', pageCode: 'menu' };
  if (pathname === '/findStore') return { level: 2, title: 'store.title', pageCode: 'findStore' };
  if (pathname === '/product/search') return { level: 3, title: 'search.title', pageCode: 'search' };
  if (pathname.startsWith('/product/')) return { level: 3, title: 'menu.title', pageCode: 'productInfo' };
  return { level: 1, title: null, pageCode: '' };
}
