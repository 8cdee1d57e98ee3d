import { ApiError, ERR, apiGet, isApiError } from '@/lib/api';
import type { City, District, LngLat, Store } from '@/lib/api/types';

/** Cache lifetimes of spec ordering §9. */
const CITY_LIST_MS = 10_800_000;
const DISTRICT_LIST_MS = 7_200_000;
const STORE_LIST_MS = 30_000;
const BY_POINT_TIMEOUT_MS = 5_000;
const BY_POINT_RETRIES = 3;

/**
 * Coordinates as text with 6 decimals: the server rejects a latitude whose text is 5 characters or
 * fewer (spec ordering §5), so 31.23 must travel as "31.230000".
 */
export function coord(n: number | undefined): string | undefined {
  return n === undefined || !Number.isFinite(n) ? undefined : n.toFixed(6);
}

export function getDefaultStore(signal?: AbortSignal): Promise<Store> {
  return apiGet<Store>('/stores/default', { signal });
}

export function getStore(storeCode: string, signal?: AbortSignal): Promise<Store> {
  return apiGet<Store>(`/stores/${encodeURIComponent(storeCode)}`, { signal });
}

export function getCities(signal?: AbortSignal): Promise<City[]> {
  return apiGet<City[]>('/cities', { signal, cacheMs: CITY_LIST_MS });
}

export function getDistricts(cityCode: string, signal?: AbortSignal): Promise<District[]> {
  return apiGet<District[]>(`/cities/${encodeURIComponent(cityCode)}/districts`, {
    query: { all: 1 },
    signal,
    cacheMs: DISTRICT_LIST_MS,
  });
}

export interface StoreSearch {
  cityCode?: string;
  districtCode?: string;
  keyword?: string;
  point?: LngLat | null;
}

export function searchStores(q: StoreSearch, signal?: AbortSignal): Promise<Store[]> {
  return apiGet<Store[]>('/stores/search', {
    query: {
      cityCode: q.cityCode,
      districtCode: q.districtCode,
      keyword: q.keyword?.trim(),
      latitude: coord(q.point?.lat),
      longitude: coord(q.point?.lng),
    },
    signal,
    cacheMs: STORE_LIST_MS,
  });
}

/** Nearest stores. errCode "02" may still carry a list: that list is the answer. */
export async function getNearbyStores(point: LngLat, signal?: AbortSignal): Promise<Store[]> {
  try {
    return await apiGet<Store[]>('/stores/nearby', {
      query: { latitude: coord(point.lat), longitude: coord(point.lng) },
      signal,
      cacheMs: STORE_LIST_MS,
    });
  } catch (e) {
    if (isApiError(e) && e.errCode === ERR.STORE_LOOKUP && Array.isArray(e.data)) return e.data as Store[];
    throw e;
  }
}

/**
 * Stores delivering to a point, nearest first. Spec ordering §3 and §9: 5 s timeout, up to 3 retries
 * while the answer's errCode is not '00' (the lookup's own "02" answers included); the last error,
 * with its message, is what the caller shows.
 */
export async function getStoresByPoint(point: LngLat, isBookOrder = false, signal?: AbortSignal): Promise<Store[]> {
  let last: unknown;
  for (let attempt = 0; attempt <= BY_POINT_RETRIES; attempt += 1) {
    try {
      return await apiGet<Store[]>('/stores/by-point', {
        query: { latitude: coord(point.lat), longitude: coord(point.lng), isBookOrder: isBookOrder ? 1 : 0 },
        signal,
        timeoutMs: BY_POINT_TIMEOUT_MS,
        cacheMs: STORE_LIST_MS,
      });
    } catch (e) {
      last = e;
      if (signal?.aborted) throw e;
      if (!(e instanceof ApiError)) throw e;
    }
  }
  throw last;
}
