import { describe, expect, it } from 'vitest';
import { makeCard, makeMenu } from '@/test/fixtures';
import { visibleCategories } from './menu';

describe('visibleCategories', () => {
  it('hides empty and gift categories and sorts categories and products', () => {
    const menu = makeMenu();
    menu.categories[0]?.products.push(makeCard({ productCode: 'PZ000', sort: 0 }));
    const shown = visibleCategories([...menu.categories].reverse());
    expect(shown.map((c) => c.categoryCode)).toEqual(['PIZZA', 'DRINK']);
    expect(shown[0]?.products.map((p) => p.productCode)).toEqual(['PZ000', 'PZ001']);
  });
});
