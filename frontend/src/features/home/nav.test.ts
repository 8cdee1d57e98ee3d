import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, visibleNavItems } from './nav';

describe('side navigation', () => {
  it('hides needLogin entries for guests', () => {
    const guest = visibleNavItems(NAV_ITEMS, false).map((i) => i.key);
    expect(guest).toEqual(['home', 'menu', 'findStore', 'search']);
    expect(visibleNavItems(NAV_ITEMS, true)).toHaveLength(NAV_ITEMS.length);
  });
  it('hides switched-off entries', () => {
    expect(visibleNavItems(NAV_ITEMS, false, ['search']).map((i) => i.key)).not.toContain('search');
  });
});
