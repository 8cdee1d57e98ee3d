/** Client-side checks of the account forms (spec account §5); the server checks again. */
import type { MessageKey } from '@/lib/i18n';

export type Check = MessageKey | null;

const PHONE = /^1[3-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ILLEGAL = /[、|']/;
export const NAME_MAX = 15;
export const MIN_BIRTHDAY = '1910-01-01';

export function checkPhone(value: string): Check {
  const v = value.replace(/[\s-]/g, '');
  if (!v) return 'valid.phoneEmpty';
  return PHONE.test(v) ? null : 'valid.phoneFormat';
}

/** Logging in only needs a password; the strength rules are for setting one. */
export function checkLoginPassword(value: string): Check {
  return value ? null : 'valid.passwordEmpty';
}

export function checkNewPassword(value: string): Check {
  if (!value) return 'valid.passwordEmpty';
  const ok = value.length >= 8 && value.length <= 20 && /[A-Za-z]/.test(value) && /\d/.test(value) && /^[\x21-\x7e]+$/.test(value);
  return ok ? null : 'valid.passwordRule';
}

export function checkSmsCode(value: string): Check {
  const v = value.trim();
  if (!v) return 'valid.codeEmpty';
  return /^\d{6}$/.test(v) ? null : 'valid.codeFormat';
}

export function checkAgreement(ticked: boolean): Check {
  return ticked ? null : 'valid.agreement';
}

export function checkName(value: string): Check {
  const v = value.trim();
  if (!v) return 'valid.nameEmpty';
  if ([...v].length > NAME_MAX) return 'valid.nameMax';
  return ILLEGAL.test(v) ? 'valid.illegalChars' : null;
}

export function checkEmail(value: string): Check {
  const v = value.trim();
  if (!v) return 'valid.emailEmpty';
  return EMAIL.test(v) ? null : 'valid.emailFormat';
}

export function checkGender(value: number): Check {
  return value === 1 || value === 2 ? null : 'valid.genderEmpty';
}

export function checkBirthday(value: string, today: string): Check {
  if (!value) return 'valid.birthdayEmpty';
  return value >= MIN_BIRTHDAY && value <= today ? null : 'valid.birthdayRange';
}

/** The first error of each field that has one. */
export function collect(checks: Record<string, Check>): Record<string, MessageKey> {
  const out: Record<string, MessageKey> = {};
  for (const [field, key] of Object.entries(checks)) if (key) out[field] = key;
  return out;
}

// Kept in its own module: the home page shows it, and a module shared with the entry brings all of
// its exports into the entry chunk (the account forms' checks and their words).
export { maskPhone } from './maskPhone';
