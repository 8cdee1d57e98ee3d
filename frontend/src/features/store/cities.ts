import type { City } from '@/lib/api/types';

export interface CityGroup {
  letter: string;
  cities: City[];
}

/** Hot cities first, then every city under its initial (cityCharAt0), A–Z, by English name. */
export function groupCities(cities: City[]): { hot: City[]; groups: CityGroup[] } {
  const hot = cities.filter((c) => c.hot);
  const byLetter = new Map<string, City[]>();
  for (const c of cities) {
    const letter = (c.cityCharAt0 || c.cityNameEN.charAt(0) || '#').toUpperCase();
    const list = byLetter.get(letter) ?? [];
    list.push(c);
    byLetter.set(letter, list);
  }
  const groups = [...byLetter.entries()]
    .sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)))
    .map(([letter, list]) => ({ letter, cities: [...list].sort((a, b) => a.cityNameEN.localeCompare(b.cityNameEN)) }));
  return { hot, groups };
}
