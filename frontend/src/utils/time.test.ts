import { describe, expect, it } from 'vitest';
import { dayKey, daysFrom, formatClock, formatDateTime, formatDayTime } from './time';

// 2026-11-24 02:30 UTC = 10:30 in Shanghai.
const at = Date.parse('2026-11-24T02:30:00Z');

describe('store time', () => {
  it('formats in China Standard Time whatever the device zone', () => {
    expect(formatClock(at)).toBe('10:30');
    expect(dayKey(at)).toBe('2026-11-24');
    expect(formatDateTime(Date.parse('2026-11-24T16:05:00Z'))).toBe('2026-11-25 00:05');
  });

  it('names today and tomorrow by the store calendar', () => {
    const lateEvening = Date.parse('2026-11-24T15:30:00Z'); // 23:30 Shanghai
    const nextMorning = Date.parse('2026-11-24T16:30:00Z'); // 00:30 the next day
    expect(daysFrom(lateEvening, nextMorning)).toBe(1);
    expect(formatDayTime(nextMorning, 'zh', lateEvening)).toBe('明天 00:30');
    expect(formatDayTime(at, 'zh', at)).toBe('今天 10:30');
    expect(formatDayTime(at + 2 * 86_400_000, 'zh', at)).toBe('11月26日 10:30');
    expect(formatDayTime(at + 86_400_000, 'en', at)).toBe('Tomorrow 10:30');
    expect(formatDayTime(at + 2 * 86_400_000, 'en', at)).toBe('26 Nov 10:30');
  });
});
