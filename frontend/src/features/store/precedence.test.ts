import { describe, expect, it } from 'vitest';
import { makeStore, virtualStore } from '@/test/fixtures';
import { isSavable, resolveCurrentStore, type StoreCandidates, type StoreSource } from './precedence';

const scanned = makeStore({ storeCode: 'SCAN' });
const selected = makeStore({ storeCode: 'SEL' });
const gps = makeStore({ storeCode: 'GPS' });
const def = makeStore({ storeCode: 'DEF' });
const none: StoreCandidates = { scanned: null, selected: null, gps: null, fallback: null };

describe('resolveCurrentStore (spec ordering §4)', () => {
  const cases: [string, Partial<StoreCandidates>, string | null, StoreSource][] = [
    ['all known: scanned wins', { scanned, selected, gps, fallback: def }, 'SCAN', 'scanned'],
    ['selected over gps and fallback', { selected, gps, fallback: def }, 'SEL', 'selected'],
    ['gps over fallback', { gps, fallback: def }, 'GPS', 'gps'],
    ['fallback default store', { fallback: def }, 'DEF', 'default'],
    ['fallback virtual store', { fallback: virtualStore }, '88888', 'virtual'],
    ['nothing known', {}, null, 'none'],
    ['a virtual store as selection is ignored', { selected: virtualStore, gps }, 'GPS', 'gps'],
    ['a virtual scanned store is ignored', { scanned: virtualStore, selected }, 'SEL', 'selected'],
    ['code 88888 without the flag is still virtual', { selected: makeStore({ storeCode: '88888' }), fallback: def }, 'DEF', 'default'],
    ['store data without a code is ignored', { selected: makeStore({ storeCode: '' }), fallback: def }, 'DEF', 'default'],
    ['scanned over selected only', { scanned, selected }, 'SCAN', 'scanned'],
  ];
  it.each(cases)('%s', (_name, c, code, source) => {
    const r = resolveCurrentStore({ ...none, ...c });
    expect(r.store?.storeCode ?? null).toBe(code);
    expect(r.source).toBe(source);
  });

  it('counts the scanned store only while its scan is valid (3600 s)', () => {
    const c = { ...none, scanned, selected, scanExpiresAt: 10_000 };
    expect(resolveCurrentStore({ ...c, now: 9_999 }).source).toBe('scanned');
    expect(resolveCurrentStore({ ...c, now: 10_000 }).source).toBe('selected');
    expect(resolveCurrentStore({ ...c }).source).toBe('scanned');
  });

  it('never treats a virtual store as savable', () => {
    expect(isSavable(virtualStore)).toBe(false);
    expect(isSavable(def)).toBe(true);
    expect(isSavable(null)).toBe(false);
  });
});
