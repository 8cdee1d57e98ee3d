/**
 * Where the customer is: permission state (allowed / denied / unknown, with the denied flag
 * stored), the last location (cached 7200 s) and the locate flow: browser GPS → reverse geocode on
 * the server (WGS-84 → GCJ-02) → or, failing that, the IP location.
 */
import { create } from 'zustand';
import { isApiError } from '@/lib/api';
import { storage } from '@/lib/storage';
import type { LocationInfo } from '@/lib/api/types';
import { getIpLocation, reverseGeocode } from '../api/geo';
import { getBrowserPosition, LOCATION_ERROR, LocationError, queryPermission, type LocationErrorCode } from '../geolocation';

export type Permission = 'allowed' | 'denied' | 'unknown';

const DENIED_KEY = 'loc:denied';
const LOCATION_KEY = 'loc:last';
export const LOCATION_TTL_S = 7200;

export interface LocateResult {
  location: LocationInfo;
  /** Set when GPS failed and the IP location stands in. */
  gpsError: LocationErrorCode | null;
}

export interface LocationState {
  permission: Permission;
  /** The customer refused once; we do not ask unprompted again. */
  denied: boolean;
  location: LocationInfo | null;
  status: 'idle' | 'locating' | 'done' | 'error';
  errorCode: LocationErrorCode | null;
  /** Server-side failure text (already localised) when even the IP fallback failed. */
  errorMessage: string | null;
  locate: () => Promise<LocateResult | null>;
  syncPermission: () => Promise<void>;
}

function loadState() {
  return {
    permission: 'unknown' as Permission,
    denied: storage.get<boolean>(DENIED_KEY) === true,
    location: storage.get<LocationInfo>(LOCATION_KEY),
    status: 'idle' as const,
    errorCode: null,
    errorMessage: null,
  };
}

export const useLocation = create<LocationState>((set, get) => ({
  ...loadState(),

  syncPermission: async () => {
    const permission = await queryPermission();
    if (permission === 'allowed') storage.remove(DENIED_KEY);
    if (permission === 'denied') storage.set(DENIED_KEY, true);
    set({ permission, denied: permission === 'denied' ? true : permission === 'allowed' ? false : get().denied });
  },

  locate: async () => {
    if (get().status === 'locating') return null;
    set({ status: 'locating', errorCode: null, errorMessage: null });
    let gpsError: LocationErrorCode | null = null;
    try {
      const coords = await getBrowserPosition();
      storage.remove(DENIED_KEY);
      set({ permission: 'allowed', denied: false });
      try {
        const info = await reverseGeocode(coords.latitude, coords.longitude, 'wgs84');
        const location: LocationInfo = { ...info, locationType: 'gps' };
        storage.set(LOCATION_KEY, location, LOCATION_TTL_S);
        set({ location, status: 'done' });
        return { location, gpsError: null };
      } catch {
        gpsError = LOCATION_ERROR.RESOLVE_FAILED;
      }
    } catch (e) {
      gpsError = e instanceof LocationError ? e.code : LOCATION_ERROR.UNAVAILABLE;
      if (gpsError === LOCATION_ERROR.PERMISSION_DENIED) {
        storage.set(DENIED_KEY, true);
        set({ permission: 'denied', denied: true });
      }
    }
    // GPS did not work: the IP location stands in, and the customer is told why.
    try {
      const info = await getIpLocation();
      const location: LocationInfo = { ...info, locationType: 'ip' };
      set({ location, status: 'done', errorCode: gpsError });
      return { location, gpsError };
    } catch (e) {
      set({ status: 'error', errorCode: gpsError, errorMessage: isApiError(e) ? e.message : null });
      return null;
    }
  },
}));

/** Back to what storage holds (tests; after a logout clears storage). */
export function resetLocation(): void {
  useLocation.setState(loadState());
}
