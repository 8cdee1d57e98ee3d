import { describe, expect, it } from 'vitest';
import { makeTabletOrder } from './testOrder';
import { DELIVERY_PROMISE_MS, UNDO_WINDOW_MS, canUndo, formatElapsed, latenessOf, minutesTo, promiseOf, undoMarkFor } from './timing';

const MIN = 60_000;
const T = 1_795_410_000_000;

describe('latenessOf', () => {
  it.each([
    ['no promise', null, T, 'ok'],
    ['plenty of time', T + 20 * MIN, T, 'ok'],
    ['exactly 5 minutes left', T + 5 * MIN, T, 'ok'],
    ['under 5 minutes left', T + 5 * MIN - 1, T, 'soon'],
    ['at the promise', T, T, 'soon'],
    ['a millisecond past', T, T + 1, 'late'],
    ['long past', T, T + 40 * MIN, 'late'],
  ] as const)('%s', (_name, promise, nowMs, want) => {
    expect(latenessOf(promise, nowMs)).toBe(want);
  });
});

describe('promiseOf', () => {
  it('is the order own promise', () => {
    expect(promiseOf(makeTabletOrder({ promisedBy: T }))).toBe(T);
  });
  it('falls back to 30 minutes after payment for a delivery (外送30分钟必达)', () => {
    expect(promiseOf(makeTabletOrder({ promisedBy: 0, paidAt: T }))).toBe(T + DELIVERY_PROMISE_MS);
  });
  it('has none for a takeaway without one', () => {
    expect(promiseOf(makeTabletOrder({ promisedBy: 0, orderType: 1 }))).toBeNull();
  });
});

describe('formatElapsed and minutesTo', () => {
  it.each([
    [0, '0:00'],
    [59_999, '0:59'],
    [65_000, '1:05'],
    [3_723_000, '1:02:03'],
    [-5000, '0:00'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatElapsed(T, T + ms)).toBe(text);
  });
  it('shows a dash without a start', () => {
    expect(formatElapsed(null, T)).toBe('–');
  });
  it.each([
    [T + 30_000, T, 1],
    [T + 5 * MIN, T, 5],
    [T, T + 90_000, 1],
    [T, T + 10 * MIN, 10],
  ])('minutes between promise %i and now %i → %i', (promise, nowMs, n) => {
    expect(minutesTo(promise, nowMs)).toBe(n);
  });
});

describe('undo', () => {
  it('marks a production step for two minutes from when the stage began', () => {
    expect(undoMarkFor({ progress: 20, stageSince: T })).toEqual({ progress: 20, until: T + UNDO_WINDOW_MS });
  });
  it.each([1, 50])('offers no undo at progress %i (across acceptance, out of completion)', (progress) => {
    expect(undoMarkFor({ progress, stageSince: T })).toBeNull();
  });
  it.each([
    ['inside the window', 20, T + UNDO_WINDOW_MS - 1, true],
    ['window over', 20, T + UNDO_WINDOW_MS, false],
    ['someone moved it on', 30, T + 1000, false],
  ] as const)('%s', (_name, progress, nowMs, want) => {
    expect(canUndo({ progress: 20, until: T + UNDO_WINDOW_MS }, { progress }, nowMs)).toBe(want);
  });
  it('no mark, no undo', () => {
    expect(canUndo(undefined, { progress: 20 }, T)).toBe(false);
  });
});
