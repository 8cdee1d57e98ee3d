import { useEffect, useRef, useState } from 'react';
import { PinIcon, SearchIcon, CloseIcon } from '@/components/Icons';
import { ADDRESS_SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import type { LngLat, LocationInfo, Poi } from '@/lib/api/types';
import { getInputTips } from '../api/geo';
import { locationErrorKey } from '../geolocation';
import { useLocation } from '../store/location';
import './NearMePanel.css';

export interface Located {
  point: LngLat;
  label: string;
  fromGps: boolean;
  /** Why the position is approximate (GPS failed, IP used). */
  note?: string;
}

export interface NearMePanelProps {
  onLocated: (located: Located) => void;
  onAddress: (poi: Poi) => void;
}

function labelOf(info: LocationInfo): string {
  return info.showName || info.name || info.address || [info.city, info.district].filter(Boolean).join(' ');
}

/** "Near me": locate by GPS (IP as the fallback), or type a delivery address. */
export function NearMePanel({ onLocated, onAddress }: NearMePanelProps) {
  const t = useT();
  const status = useLocation((s) => s.status);
  const errorCode = useLocation((s) => s.errorCode);
  const errorMessage = useLocation((s) => s.errorMessage);
  const location = useLocation((s) => s.location);
  const locate = useLocation((s) => s.locate);
  const denied = useLocation((s) => s.denied);
  const announced = useRef(false);

  // A position we already know (cached 7200 s) shows its stores straight away.
  useEffect(() => {
    if (announced.current || !location) return;
    announced.current = true;
    onLocated({ point: location.point, label: labelOf(location), fromGps: location.locationType === 'gps' });
  }, [location, onLocated]);

  // Permission already granted (and nothing cached): locate without asking.
  useEffect(() => {
    let live = true;
    const state = useLocation.getState();
    void state.syncPermission().then(() => {
      if (live && !announced.current && useLocation.getState().permission === 'allowed' && !useLocation.getState().location) {
        void runRef.current();
      }
    });
    return () => {
      live = false;
    };
  }, []);

  const run = async () => {
    announced.current = true;
    const result = await locate();
    if (!result) return;
    const note = result.gpsError ? t('store.ipFallback', { reason: t(locationErrorKey(result.gpsError)) }) : undefined;
    onLocated({ point: result.location.point, label: labelOf(result.location), fromGps: result.gpsError === null, note });
  };
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  return (
    <div className="nearme">
      <button type="button" className="btn btn--primary btn--block nearme__locate" onClick={() => void run()} disabled={status === 'locating'} data-testid="locate-btn">
        <PinIcon /> {status === 'locating' ? t('store.locating') : t('store.locate')}
      </button>
      {denied && status === 'idle' && <p className="nearme__hint">{t('loc.err.1')}</p>}
      {status === 'error' && (
        <p className="nearme__error" role="alert">
          {errorCode ? t(locationErrorKey(errorCode)) : null}
          {errorCode && errorMessage ? '；' : null}
          {errorMessage}
        </p>
      )}
      <AddressSearch onPick={onAddress} />
    </div>
  );
}

function AddressSearch({ onPick }: { onPick: (poi: Poi) => void }) {
  const t = useT();
  const lang = useLang();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const keyword = useDebouncedValue(text.trim(), ADDRESS_SEARCH_DEBOUNCE_MS);
  const city = useLocation((s) => s.location?.city);
  const tips = useQuery(open && keyword ? `tips:${keyword}:${city ?? ''}:${lang}` : null, (signal) => getInputTips(keyword, city, signal));
  // Suggestions without an address or a point are dropped (spec ordering §5).
  const usable = (tips.data ?? []).filter((p) => p.address && p.point && Number.isFinite(p.point.lat));
  return (
    <div className="addr">
      <h3 className="section-title">{t('store.addressTitle')}</h3>
      <div className="searchbox">
        <SearchIcon className="searchbox__icon" />
        <input
          className="searchbox__input"
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          placeholder={t('store.addressPlaceholder')}
          aria-label={t('store.addressPlaceholder')}
          data-testid="address-input"
        />
        {text && (
          <button type="button" className="searchbox__clear" onClick={() => setText('')} aria-label={t('search.clear')}>
            <CloseIcon />
          </button>
        )}
      </div>
      {open && keyword && !tips.loading && (
        <ul className="addr__tips" role="listbox">
          {tips.error && <li className="addr__empty">{tips.error.message}</li>}
          {!tips.error && usable.length === 0 && <li className="addr__empty">{t('loc.noResult')}</li>}
          {usable.map((p) => (
            <li key={p.id || `${p.name}-${p.address}`}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                className="addr__tip"
                onClick={() => {
                  setOpen(false);
                  setText(p.name);
                  onPick(p);
                }}
              >
                <span className="addr__name">{p.name}</span>
                <span className="addr__address">{[p.district, p.address].filter(Boolean).join(' · ')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
