import type { PageSwitch } from '@/lib/api/types';
import { apiGet } from './api';

/** pageColorShowSwitch, cached 1 minute (spec ordering §7). */
export function getPageSwitch(signal?: AbortSignal): Promise<PageSwitch> {
  return apiGet<PageSwitch>('/system/page-switch', { signal, cacheMs: 60_000 });
}

export function getServerTime(signal?: AbortSignal): Promise<{ serverTime: number }> {
  return apiGet<{ serverTime: number }>('/system/time', { signal, timeoutMs: 500 });
}
