import { apiGet } from '@/lib/api';
import type { Menu, MenuCategory } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';

const PRODUCT_TIMEOUT_MS = 10_000;

export function getMenu(storeCode: string, orderType: OrderType, orderTime: number, signal?: AbortSignal): Promise<Menu> {
  return apiGet<Menu>(`/stores/${encodeURIComponent(storeCode)}/menu`, {
    query: { orderType, orderTime },
    signal,
    timeoutMs: PRODUCT_TIMEOUT_MS,
  });
}

const GIFT_CATEGORY_NAMES = ['赠品', 'gift', 'gifts'];
const isGift = (c: MenuCategory) =>
  GIFT_CATEGORY_NAMES.includes(c.categoryName.trim().toLowerCase()) || GIFT_CATEGORY_NAMES.includes((c.categoryNameEN ?? '').trim().toLowerCase());

/**
 * Categories as shown: sorted, products sorted, gift and nameless categories dropped and empty
 * categories hidden (spec ordering §5; the server applies the same rules, this keeps the screen safe).
 */
export function visibleCategories(categories: MenuCategory[]): MenuCategory[] {
  return [...categories]
    .filter((c) => c.categoryName && !isGift(c))
    .map((c) => ({ ...c, products: [...c.products].sort((a, b) => a.sort - b.sort) }))
    .filter((c) => c.products.length > 0)
    .sort((a, b) => a.sort - b.sort);
}
