import { describe, expect, it, vi } from 'vitest';
import { translate } from '@/lib/i18n';
import { fromPositionError, getBrowserPosition, GEO_MAX_AGE_MS, GEO_TIMEOUT_MS, LocationError, locationErrorKey, type LocationErrorCode } from './geolocation';

function geo(outcomes: ({ code: number } | { lat: number; lng: number })[]) {
  const getCurrentPosition = vi.fn((ok: PositionCallback, fail?: PositionErrorCallback | null, opts?: PositionOptions) => {
    expect(opts).toMatchObject({ timeout: GEO_TIMEOUT_MS, maximumAge: GEO_MAX_AGE_MS });
    const next = outcomes.shift();
    if (!next) throw new Error('no more outcomes');
    if ('code' in next) fail?.({ code: next.code, message: 'x' } as GeolocationPositionError);
    else ok({ coords: { latitude: next.lat, longitude: next.lng, accuracy: 10 } } as GeolocationPosition);
  });
  return { getCurrentPosition };
}

describe('browser position', () => {
  it('retries timeouts up to 3 times', async () => {
    const g = geo([{ code: 3 }, { code: 2 }, { code: 3 }, { lat: 31.2, lng: 121.4 }]);
    await expect(getBrowserPosition(g)).resolves.toMatchObject({ latitude: 31.2, longitude: 121.4 });
    expect(g.getCurrentPosition).toHaveBeenCalledTimes(4);
  });
  it('gives up after the retries with the last error', async () => {
    const g = geo([{ code: 3 }, { code: 3 }, { code: 3 }, { code: 3 }]);
    await expect(getBrowserPosition(g)).rejects.toMatchObject({ code: 3 });
  });
  it('does not retry a refusal', async () => {
    const g = geo([{ code: 1 }]);
    await expect(getBrowserPosition(g)).rejects.toMatchObject({ code: 1 });
    expect(g.getCurrentPosition).toHaveBeenCalledTimes(1);
  });
  it('reports "not enabled" without a geolocation API', async () => {
    await expect(getBrowserPosition(undefined)).rejects.toBeInstanceOf(LocationError);
    await expect(getBrowserPosition(undefined)).rejects.toMatchObject({ code: 4 });
  });
  it('maps browser error codes', () => {
    expect(fromPositionError({ code: 1 }).code).toBe(1);
    expect(fromPositionError({ code: 2 }).code).toBe(2);
    expect(fromPositionError({ code: 3 }).code).toBe(3);
  });
  it('has a zh and en message for codes 1–9', () => {
    for (let c = 1; c <= 9; c += 1) {
      const key = locationErrorKey(c as LocationErrorCode);
      expect(translate('zh', key)).not.toBe(key);
      expect(translate('en', key)).not.toBe(translate('zh', key));
    }
  });
});
