import { describe, expect, it } from 'vitest';
import { fenToYuanText, formatFen, formatYuan, toFen } from './money';

describe('money', () => {
  it.each([
    [89.9, 8990],
    [0.1 + 0.2, 30],
    [19.99, 1999],
    [1.15, 115],
    [0.07, 7],
    [0, 0],
    [null, 0],
    [Number.NaN, 0],
  ])('toFen(%s) = %s', (yuan, fen) => {
    expect(toFen(yuan)).toBe(fen);
  });
  it('formats with two decimals only when shown', () => {
    expect(formatFen(8990)).toBe('¥89.90');
    expect(formatFen(5)).toBe('¥0.05');
    expect(formatFen(-150)).toBe('-¥1.50');
    expect(fenToYuanText(12345)).toBe('123.45');
    expect(formatYuan(89.9)).toBe('¥89.90');
  });
});
