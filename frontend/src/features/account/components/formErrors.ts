import { fieldErrors, isApiError } from '@/lib/api';

/** Server messages are shown 2 s (spec account §8: login failures). */
export const SERVER_TOAST_MS = 2000;

/**
 * Splits a failed call into messages under fields (errCode "400" with `[{field, message}]`, field
 * names renamed to the form's) and a toast for everything else.
 */
export function splitServerError(
  e: unknown,
  known: string[],
  rename: Record<string, string> = {},
): { fields: Record<string, string>; toast: string | null } {
  const fields: Record<string, string> = {};
  let rest: string | null = null;
  for (const [field, message] of Object.entries(fieldErrors(e))) {
    const name = rename[field] ?? field;
    if (known.includes(name)) fields[name] = message;
    else rest ??= message;
  }
  if (Object.keys(fields).length > 0) return { fields, toast: rest };
  return { fields, toast: rest ?? (isApiError(e) || e instanceof Error ? e.message : String(e)) };
}

/** The errors without one field's. */
export function withoutKey(e: Record<string, string>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(e).filter(([k]) => k !== key));
}
