/**
 * Order times as the customer reads them: in the stores' time zone (China Standard Time), whatever
 * the device's zone is, so the time shown is the one the store works to.
 */
import { translate, type Lang } from '@/lib/i18n';

export const STORE_TIME_ZONE = 'Asia/Shanghai';

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: STORE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function parts(ms: number): Parts {
  const out: Record<string, number> = {};
  for (const p of partsFormat.formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return { year: out.year ?? 0, month: out.month ?? 1, day: out.day ?? 1, hour: (out.hour ?? 0) % 24, minute: out.minute ?? 0 };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "18:30" */
export function formatClock(ms: number): string {
  const p = parts(ms);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** "2026-11-24" (the store's calendar day). */
export function dayKey(ms: number): string {
  const p = parts(ms);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Whole calendar days from `fromMs` to `ms` in the store's zone (0 today, 1 tomorrow). */
export function daysFrom(fromMs: number, ms: number): number {
  const a = parts(fromMs);
  const b = parts(ms);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

const monthFormat = new Intl.DateTimeFormat('en-GB', { timeZone: STORE_TIME_ZONE, month: 'short' });

/** "今天 18:30", "明天 18:30", "11月24日 18:30" / "Today 18:30", "Tomorrow 18:30", "24 Nov 18:30". */
export function formatDayTime(ms: number, lang: Lang, nowMs: number): string {
  const p = parts(ms);
  const d = daysFrom(nowMs, ms);
  const time = `${pad(p.hour)}:${pad(p.minute)}`;
  if (d === 0) return translate(lang, 'time.today', { time });
  if (d === 1) return translate(lang, 'time.tomorrow', { time });
  const month = lang === 'en' ? monthFormat.format(new Date(ms)) : p.month;
  return translate(lang, 'time.date', { month, day: p.day, time });
}

/** "2026-11-24 18:30" (order records). */
export function formatDateTime(ms: number): string {
  return `${dayKey(ms)} ${formatClock(ms)}`;
}
