import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Empty } from '@/components/Empty';
import { Loading } from '@/components/Loading';
import { SearchIcon, CloseIcon } from '@/components/Icons';
import { ADDRESS_SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useQuery } from '@/hooks/useQuery';
import { pickLang, useLang, useT, type MessageKey } from '@/lib/i18n';
import type { City, LngLat, Store } from '@/lib/api/types';
import { getDistricts, getNearbyStores, getStoresByPoint, searchStores } from '../api/stores';
import { useStoreSelection } from '../store/selection';
import { CityPicker } from './CityPicker';
import { StoreCard } from './StoreCard';
import './StoreFinder.css';

export type FinderTab = 'city' | 'search' | 'near';
const TABS: { tab: FinderTab; label: MessageKey }[] = [
  { tab: 'city', label: 'store.tab.city' },
  { tab: 'search', label: 'store.tab.search' },
  { tab: 'near', label: 'store.tab.near' },
];

/** What the "near me" panel (composed in by the app) can ask the finder to show. */
export interface NearActions {
  /** Nearest stores to a point; `fromGps`: the first becomes the current GPS store. */
  showNearby: (point: LngLat, opts: { label: string; fromGps: boolean; note?: string }) => void;
  /** Stores delivering to a chosen address. */
  showDeliveringTo: (point: LngLat, label: string) => void;
}

export interface StoreFinderProps {
  currentStoreCode?: string | null;
  onChoose: (store: Store) => void;
  renderNearPanel?: (actions: NearActions) => ReactNode;
}

/** Store finder: by city and district, by text, or near a point (spec ordering §2, /findStore). */
export function StoreFinder({ currentStoreCode, onChoose, renderNearPanel }: StoreFinderProps) {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: FinderTab = raw === 'search' || raw === 'near' ? raw : 'city';
  const setTab = (next: FinderTab) => {
    const p = new URLSearchParams(params);
    p.set('tab', next);
    setParams(p, { replace: true });
  };
  return (
    <div className="finder">
      <div className="tabs finder__tabs" role="tablist">
        {TABS.map(({ tab: key, label }) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            className={`tabs__tab${tab === key ? ' tabs__tab--on' : ''}`}
            onClick={() => setTab(key)}
            data-testid={`finder-tab-${key}`}
          >
            {t(label)}
          </button>
        ))}
      </div>
      {tab === 'city' && <CityTab currentStoreCode={currentStoreCode} onChoose={onChoose} />}
      {tab === 'search' && <SearchTab currentStoreCode={currentStoreCode} onChoose={onChoose} />}
      {tab === 'near' && <NearTab currentStoreCode={currentStoreCode} onChoose={onChoose} renderNearPanel={renderNearPanel} />}
    </div>
  );
}

interface ListProps {
  currentStoreCode?: string | null;
  onChoose: (store: Store) => void;
}

function StoreList({
  stores,
  loading,
  error,
  reload,
  emptyText,
  currentStoreCode,
  onChoose,
}: ListProps & { stores: Store[] | undefined; loading: boolean; error: Error | null; reload: () => void; emptyText: string }) {
  const t = useT();
  if (loading) return <Loading />;
  if (error) return <Loading error={error.message} reloadText={t('common.retry')} onReload={reload} />;
  if (!stores || stores.length === 0) return <Empty text={emptyText} />;
  return (
    <div className="finder__list" data-testid="store-list">
      <p className="finder__count">{t('store.count', { n: stores.length })}</p>
      {stores.map((s) => (
        <StoreCard key={s.storeCode} store={s} current={s.storeCode === currentStoreCode} onChoose={onChoose} />
      ))}
    </div>
  );
}

function CityTab({ currentStoreCode, onChoose }: ListProps) {
  const t = useT();
  const lang = useLang();
  const [params, setParams] = useSearchParams();
  const cityCode = params.get('city');
  const districtCode = params.get('district') ?? '';
  const cityName = params.get('cityName') ?? '';

  const pickCity = (c: City) => {
    const p = new URLSearchParams(params);
    p.set('tab', 'city');
    p.set('city', c.cityCode);
    p.set('cityName', pickLang(lang, c.cityNameCN, c.cityNameEN) || c.cityName);
    p.delete('district');
    setParams(p);
  };
  const pickDistrict = (code: string) => {
    const p = new URLSearchParams(params);
    if (code) p.set('district', code);
    else p.delete('district');
    setParams(p, { replace: true });
  };
  const changeCity = () => {
    const p = new URLSearchParams(params);
    p.delete('city');
    p.delete('cityName');
    p.delete('district');
    setParams(p);
  };

  const districts = useQuery(cityCode ? `districts:${cityCode}:${lang}` : null, (signal) => getDistricts(cityCode ?? '', signal));
  const stores = useQuery(cityCode ? `stores:${cityCode}:${districtCode}:${lang}` : null, (signal) =>
    searchStores({ cityCode: cityCode ?? undefined, districtCode: districtCode || undefined }, signal),
  );

  if (!cityCode) return <CityPicker onPick={pickCity} />;
  const currentCityName = stores.data?.[0]?.cityName || cityName || cityCode;
  return (
    <div className="finder__city">
      <div className="finder__citybar">
        <strong data-testid="finder-city-name">{currentCityName}</strong>
        <button type="button" className="link-btn" onClick={changeCity}>
          {t('store.changeCity')}
        </button>
      </div>
      {districts.data && districts.data.length > 0 && (
        <div className="finder__districts" role="tablist" aria-label="districts">
          {districts.data.map((d) => (
            <button
              key={d.districtCode || 'all'}
              type="button"
              role="tab"
              aria-selected={d.districtCode === districtCode}
              className={`chip${d.districtCode === districtCode ? ' chip--on' : ''}`}
              onClick={() => pickDistrict(d.districtCode)}
              data-testid={`district-${d.districtCode || 'all'}`}
            >
              {lang === 'en' ? d.districtNameEN || d.districtName : d.districtName}
            </button>
          ))}
        </div>
      )}
      <StoreList
        stores={stores.data}
        loading={stores.loading}
        error={stores.error}
        reload={stores.reload}
        emptyText={t('store.noStores')}
        currentStoreCode={currentStoreCode}
        onChoose={onChoose}
      />
    </div>
  );
}

function SearchTab({ currentStoreCode, onChoose }: ListProps) {
  const t = useT();
  const lang = useLang();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const keyword = useDebouncedValue(text.trim(), ADDRESS_SEARCH_DEBOUNCE_MS);
  const stores = useQuery(keyword ? `store-search:${keyword}:${lang}` : null, (signal) => searchStores({ keyword }, signal));
  const submit = () => {
    const p = new URLSearchParams(params);
    if (text.trim()) p.set('q', text.trim());
    else p.delete('q');
    setParams(p, { replace: true });
  };
  return (
    <div className="finder__search">
      <form
        className="searchbox"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SearchIcon className="searchbox__icon" />
        <input
          className="searchbox__input"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={submit}
          placeholder={t('store.searchPlaceholder')}
          aria-label={t('store.searchPlaceholder')}
          enterKeyHint="search"
        />
        {text && (
          <button type="button" className="searchbox__clear" onClick={() => setText('')} aria-label={t('search.clear')}>
            <CloseIcon />
          </button>
        )}
      </form>
      {keyword ? (
        <StoreList
          stores={stores.data}
          loading={stores.loading}
          error={stores.error}
          reload={stores.reload}
          emptyText={t('store.notFound')}
          currentStoreCode={currentStoreCode}
          onChoose={onChoose}
        />
      ) : (
        <Empty text={t('store.searchHint')} />
      )}
    </div>
  );
}

type NearQuery =
  | { kind: 'nearby'; point: LngLat; label: string; fromGps: boolean; note?: string }
  | { kind: 'delivering'; point: LngLat; label: string };

function NearTab({ currentStoreCode, onChoose, renderNearPanel }: ListProps & { renderNearPanel?: (a: NearActions) => ReactNode }) {
  const t = useT();
  const lang = useLang();
  const [query, setQuery] = useState<NearQuery | null>(null);
  const key = query ? `${query.kind}:${query.point.lng},${query.point.lat}:${lang}` : null;
  const stores = useQuery(key, async (signal) => {
    if (!query) return [];
    if (query.kind === 'delivering') return getStoresByPoint(query.point, false, signal);
    const list = await getNearbyStores(query.point, signal);
    if (query.fromGps) useStoreSelection.getState().setGpsStore(list[0] ?? null);
    return list;
  });
  const actions: NearActions = {
    showNearby: (point, opts) => setQuery({ kind: 'nearby', point, ...opts }),
    showDeliveringTo: (point, label) => setQuery({ kind: 'delivering', point, label }),
  };
  return (
    <div className="finder__near">
      {renderNearPanel?.(actions)}
      {query && (
        <>
          {query.kind === 'nearby' && query.note && <p className="finder__note">{query.note}</p>}
          <p className="finder__where">
            {query.kind === 'delivering' ? t('store.deliveringTo', { name: query.label }) : t('store.located', { name: query.label })}
          </p>
          <StoreList
            stores={stores.data}
            loading={stores.loading}
            error={stores.error}
            reload={stores.reload}
            emptyText={query.kind === 'delivering' ? t('store.notFound') : t('store.noNearby')}
            currentStoreCode={currentStoreCode}
            onChoose={onChoose}
          />
        </>
      )}
    </div>
  );
}
