/** Coupon dates, in the stores' zone (China Standard Time). */
import type { Lang } from '@/lib/i18n';
import { STORE_TIME_ZONE } from '@/utils/time';

const zhDay = new Intl.DateTimeFormat('zh-CN', { timeZone: STORE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const enDay = new Intl.DateTimeFormat('en-GB', { timeZone: STORE_TIME_ZONE, year: 'numeric', month: 'short', day: 'numeric' });

/** "2027/12/31" / "31 Dec 2027". A validity ends before valid_to: the day shown is the last one it is good for. */
export function formatDay(ms: number, lang: Lang): string {
  return (lang === 'en' ? enDay : zhDay).format(new Date(ms));
}

/** The last day a coupon valid until `validTo` (exclusive) can be used. */
export function lastDay(validTo: number): number {
  return validTo - 1;
}
