/**
 * What a refusal's `data` tells a form: the fields at fault, the wait of a 429. Apart from
 * errors.ts, which the client (and so the home page's first load) needs; only forms use these.
 */
import { isApiError } from './errors';

/** The field errors of an errCode "400" answer (`data: [{field, message}]`), by field. */
export function fieldErrors(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(e) || !Array.isArray(e.data)) return out;
  for (const item of e.data as unknown[]) {
    if (item && typeof item === 'object' && 'field' in item && 'message' in item) {
      const { field, message } = item as { field: unknown; message: unknown };
      if (typeof field === 'string' && typeof message === 'string' && !(field in out)) out[field] = message;
    }
  }
  return out;
}

/** Seconds to wait of a 429 answer (`data.retryAfterSeconds`), or null. */
export function retryAfterSeconds(e: unknown): number | null {
  if (!isApiError(e) || !e.data || typeof e.data !== 'object') return null;
  const v = (e.data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : null;
}
