import { useRef } from 'react';
import { Loading } from '@/components/Loading';
import { Empty } from '@/components/Empty';
import { useQuery } from '@/hooks/useQuery';
import { pickLang, useLang, useT } from '@/lib/i18n';
import type { City } from '@/lib/api/types';
import { getCities } from '../api/stores';
import { groupCities } from '../cities';
import './CityPicker.css';

export interface CityPickerProps {
  onPick: (city: City) => void;
}

export function CityPicker({ onPick }: CityPickerProps) {
  const t = useT();
  const lang = useLang();
  const { data, error, loading, reload } = useQuery(`cities:${lang}`, (signal) => getCities(signal));
  const groupRefs = useRef(new Map<string, HTMLElement>());
  if (loading) return <Loading />;
  if (error) return <Loading error={error.message} reloadText={t('common.retry')} onReload={reload} />;
  if (!data || data.length === 0) return <Empty text={t('store.noStores')} />;
  const { hot, groups } = groupCities(data);
  const name = (c: City) => pickLang(lang, c.cityNameCN, c.cityNameEN) || c.cityName;
  return (
    <div className="cities">
      {hot.length > 0 && (
        <section className="cities__hot">
          <h3 className="section-title">{t('store.hotCities')}</h3>
          <div className="cities__chips">
            {hot.map((c) => (
              <button key={c.cityCode} type="button" className="chip" onClick={() => onPick(c)} data-testid={`hot-city-${c.cityCode}`}>
                {name(c)}
              </button>
            ))}
          </div>
        </section>
      )}
      <h3 className="section-title">{t('store.allCities')}</h3>
      <div className="cities__list">
        {groups.map((g) => (
          <section
            key={g.letter}
            className="cities__group"
            ref={(el) => {
              if (el) groupRefs.current.set(g.letter, el);
            }}
          >
            <h4 className="cities__letter">{g.letter}</h4>
            {g.cities.map((c) => (
              <button key={c.cityCode} type="button" className="cities__item" onClick={() => onPick(c)} data-testid={`city-${c.cityCode}`}>
                {name(c)}
              </button>
            ))}
          </section>
        ))}
        {groups.length > 4 && (
          <nav className="cities__index" aria-label="A-Z">
            {groups.map((g) => (
              <button
                key={g.letter}
                type="button"
                onClick={() => groupRefs.current.get(g.letter)?.scrollIntoView({ block: 'start', behavior: 'smooth' })}
              >
                {g.letter}
              </button>
            ))}
          </nav>
        )}
      </div>
    </div>
  );
}
