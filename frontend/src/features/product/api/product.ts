import { apiGet } from '@/lib/api';
import type { ProductDetail } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';

const PRODUCT_TIMEOUT_MS = 10_000;

export function getProduct(
  productCode: string,
  storeCode: string,
  orderType: OrderType,
  orderTime: number,
  signal?: AbortSignal,
): Promise<ProductDetail> {
  return apiGet<ProductDetail>(`/products/${encodeURIComponent(productCode)}`, {
    query: { storeCode, orderType, orderTime },
    signal,
    timeoutMs: PRODUCT_TIMEOUT_MS,
  });
}

/** detailImageURLs is semicolon separated; the card image comes first, no duplicates. */
export function productImages(p: Pick<ProductDetail, 'imageURL1' | 'detailImageURLs'>): string[] {
  const list = [p.imageURL1, ...(p.detailImageURLs ?? '').split(';')].map((s) => s?.trim()).filter((s): s is string => !!s);
  return [...new Set(list)];
}
