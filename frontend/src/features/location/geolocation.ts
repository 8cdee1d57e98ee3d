/**
 * The browser's position, with the spec's settings (timeout 5500 ms, max age 30000 ms, 3 retries)
 * and its location error codes (spec ordering §8).
 */
import type { MessageKey } from '@/lib/i18n';

export const GEO_TIMEOUT_MS = 5500;
export const GEO_MAX_AGE_MS = 30_000;
export const GEO_RETRIES = 3;

export type LocationErrorCode = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export const LOCATION_ERROR = {
  PERMISSION_DENIED: 1,
  UNAVAILABLE: 2,
  TIMEOUT: 3,
  NOT_ENABLED: 4,
  RESOLVE_FAILED: 5,
  PRIVACY_REQUIRED: 6,
  APP_PERMISSION_DENIED: 7,
  OFFICIAL_ACCOUNT_OFF: 8,
  APP_PERMISSION_OFF: 9,
} as const satisfies Record<string, LocationErrorCode>;

export class LocationError extends Error {
  readonly code: LocationErrorCode;
  constructor(code: LocationErrorCode, detail?: string) {
    super(detail ?? `location error ${code}`);
    this.name = 'LocationError';
    this.code = code;
  }
}

export function locationErrorKey(code: LocationErrorCode): MessageKey {
  return `loc.err.${code}` as MessageKey;
}

/** GeolocationPositionError codes: 1 denied, 2 unavailable, 3 timeout. */
export function fromPositionError(err: { code: number; message?: string }): LocationError {
  if (err.code === 1) return new LocationError(LOCATION_ERROR.PERMISSION_DENIED, err.message);
  if (err.code === 3) return new LocationError(LOCATION_ERROR.TIMEOUT, err.message);
  return new LocationError(LOCATION_ERROR.UNAVAILABLE, err.message);
}

export interface Coords {
  latitude: number;
  longitude: number;
  accuracy: number;
}

type Geo = Pick<Geolocation, 'getCurrentPosition'>;

function once(geo: Geo): Promise<Coords> {
  return new Promise((resolve, reject) => {
    geo.getCurrentPosition(
      (pos) => resolve({ latitude: pos.coords.latitude, longitude: pos.coords.longitude, accuracy: pos.coords.accuracy }),
      (err) => reject(fromPositionError(err)),
      { enableHighAccuracy: false, timeout: GEO_TIMEOUT_MS, maximumAge: GEO_MAX_AGE_MS },
    );
  });
}

/** Asks the browser, retrying up to 3 times; a refusal is final. */
export async function getBrowserPosition(geo: Geo | undefined = typeof navigator !== 'undefined' ? navigator.geolocation : undefined): Promise<Coords> {
  if (!geo) throw new LocationError(LOCATION_ERROR.NOT_ENABLED, 'no geolocation in this browser');
  let last: LocationError = new LocationError(LOCATION_ERROR.UNAVAILABLE);
  for (let attempt = 0; attempt <= GEO_RETRIES; attempt += 1) {
    try {
      return await once(geo);
    } catch (e) {
      last = e instanceof LocationError ? e : new LocationError(LOCATION_ERROR.UNAVAILABLE);
      if (last.code === LOCATION_ERROR.PERMISSION_DENIED) throw last;
    }
  }
  throw last;
}

/** The permission as the Permissions API knows it, without prompting. */
export async function queryPermission(): Promise<'allowed' | 'denied' | 'unknown'> {
  try {
    if (typeof navigator === 'undefined' || !navigator.permissions) return 'unknown';
    const status = await navigator.permissions.query({ name: 'geolocation' });
    if (status.state === 'granted') return 'allowed';
    if (status.state === 'denied') return 'denied';
    return 'unknown';
  } catch {
    return 'unknown';
  }
}
