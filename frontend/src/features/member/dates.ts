/** Dates of the member pages, in the stores' zone (China Standard Time). */
import type { Lang } from '@/lib/i18n';
import { STORE_TIME_ZONE } from '@/utils/time';

const zhDay = new Intl.DateTimeFormat('zh-CN', { timeZone: STORE_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric' });
const enDay = new Intl.DateTimeFormat('en-GB', { timeZone: STORE_TIME_ZONE, year: 'numeric', month: 'short', day: 'numeric' });

/** "2027年12月31日" / "31 Dec 2027". */
export function formatDay(ms: number, lang: Lang): string {
  return (lang === 'en' ? enDay : zhDay).format(new Date(ms));
}
