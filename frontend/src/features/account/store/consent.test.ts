import { describe, expect, it } from 'vitest';
import { marketingMayAsk } from './consent';

describe('where the SMS / marketing question may be asked', () => {
  it.each([
    ['/my', true],
    ['/order/status', true],
    ['/order/info', true],
    ['/order/submit', false],
    ['/selectAddress', false],
    ['/address/add', false],
    ['/menu', false],
    ['/', false],
    ['/login', false],
    ['/my/extra', false],
  ])('%s → %s', (path, may) => {
    expect(marketingMayAsk(path)).toBe(may);
  });
});
