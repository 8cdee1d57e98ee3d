import { describe, expect, it } from 'vitest';
import { forgetMenuPlace, keepMenuPlace, menuPlaceKey, peekMenuPlace, readPlace } from './scrollMemory';

const place = { y: 1200, category: 'DRINK', railTop: 80 };

describe('the menu place while a product is open', () => {
  it('is given back to the same menu until it has been applied', () => {
    keepMenuPlace(menuPlaceKey('SH001', 0), place);
    expect(peekMenuPlace(menuPlaceKey('SH001', 0))).toEqual(place);
    expect(peekMenuPlace(menuPlaceKey('SH001', 0))).toEqual(place);
    forgetMenuPlace();
    expect(peekMenuPlace(menuPlaceKey('SH001', 0))).toBeNull();
  });

  it.each([
    ['another store', menuPlaceKey('SH002', 0)],
    ['another order type', menuPlaceKey('SH001', 1)],
  ])('is dropped for %s', (_what, other) => {
    keepMenuPlace(menuPlaceKey('SH001', 0), place);
    expect(peekMenuPlace(other)).toBeNull();
    expect(peekMenuPlace(menuPlaceKey('SH001', 0))).toBeNull();
  });

  it.each([
    [null, null],
    ['x', null],
    [{ ...place, menu: 'SH001:0' }, place],
    [{ ...place, menu: 'SH001:1' }, null],
    [{ ...place, menu: 'SH001:0', y: -1 }, null],
    [{ ...place, menu: 'SH001:0', y: Number.NaN }, null],
    [{ ...place, menu: 'SH001:0', railTop: '3' }, null],
    [{ ...place, menu: 'SH001:0', category: 4 }, null],
  ])('reads %j as %j', (kept, want) => {
    expect(readPlace(kept, 'SH001:0')).toEqual(want);
  });
});
