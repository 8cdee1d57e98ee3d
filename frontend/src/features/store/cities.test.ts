import { describe, expect, it } from 'vitest';
import { cities } from '@/test/fixtures';
import { groupCities } from './cities';

describe('groupCities', () => {
  it('puts hot cities first and groups the rest A–Z by cityCharAt0', () => {
    const { hot, groups } = groupCities(cities);
    expect(hot.map((c) => c.cityCode)).toEqual(['310100', '110100']);
    expect(groups.map((g) => g.letter)).toEqual(['B', 'H', 'S']);
    expect(groups[2]?.cities.map((c) => c.cityNameEN)).toEqual(['Shanghai', 'Shenzhen']);
  });
});
