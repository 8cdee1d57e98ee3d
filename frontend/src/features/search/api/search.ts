import { apiGet } from '@/lib/api';
import type { ProductCard } from '@/lib/api/types';

const PRODUCT_TIMEOUT_MS = 10_000;

export function searchProducts(storeCode: string, keyword: string, signal?: AbortSignal): Promise<ProductCard[]> {
  return apiGet<ProductCard[]>('/products/search', { query: { storeCode, keyword: keyword.trim() }, signal, timeoutMs: PRODUCT_TIMEOUT_MS });
}

export function getHotWords(storeCode: string, signal?: AbortSignal): Promise<string[]> {
  return apiGet<string[]>('/products/hot-words', { query: { storeCode }, signal, timeoutMs: PRODUCT_TIMEOUT_MS, cacheMs: 60_000 });
}
