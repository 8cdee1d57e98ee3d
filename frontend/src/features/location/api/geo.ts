import { apiGet } from '@/lib/api';
import type { LocationInfo, PlacePage, Poi } from '@/lib/api/types';

/** Cache lifetimes of spec ordering §9. */
const IP_POINT_MS = 18_000_000;
const REGEO_MS = 18_000_000;

export function getIpLocation(signal?: AbortSignal): Promise<LocationInfo> {
  return apiGet<LocationInfo>('/geo/ip', { signal, cacheMs: IP_POINT_MS });
}

/** Reverse geocode; browsers give WGS-84, the server converts (coordType=wgs84). */
export function reverseGeocode(
  latitude: number,
  longitude: number,
  coordType: 'wgs84' | 'gcj02' = 'wgs84',
  signal?: AbortSignal,
): Promise<LocationInfo> {
  return apiGet<LocationInfo>('/geo/regeo', {
    query: { latitude: latitude.toFixed(6), longitude: longitude.toFixed(6), coordType },
    signal,
    cacheMs: REGEO_MS,
  });
}

export function getInputTips(keyword: string, city?: string, signal?: AbortSignal): Promise<Poi[]> {
  return apiGet<Poi[]>('/geo/tips', { query: { keyword, city }, signal });
}

export function searchPlaces(keyword: string, city?: string, page = 1, signal?: AbortSignal): Promise<PlacePage> {
  return apiGet<PlacePage>('/geo/places', { query: { keyword, city, page }, signal });
}

export function geocode(address: string, city?: string, signal?: AbortSignal): Promise<Poi[]> {
  return apiGet<Poi[]>('/geo/geocode', { query: { address, city }, signal });
}
