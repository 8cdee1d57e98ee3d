import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '@/components/FormField';
import { Header } from '@/components/Header';
import { PinIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { ADDRESS_SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useQuery } from '@/hooks/useQuery';
import { fieldErrors, isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import type { Address, AddressInput, Poi } from '@/lib/api/types';
import { createAddress, getAddress, smartRead, updateAddress } from '../api/addresses';
import { CONTACT_MAX, HOUSE_MAX, validateAddress } from '../validation';
import './Address.css';

export type TipSearch = (keyword: string, city?: string, signal?: AbortSignal) => Promise<Poi[]>;

export interface AddressFormProps {
  /** Editing this address; absent: a new one. */
  id?: number | null;
  /** Address suggestions (GET /geo/tips), composed in by the app. */
  searchTips: TipSearch;
  onSaved: (address: Address) => void;
}

const TOAST_MS = 2000;
const FIELDS = ['name', 'phone', 'baseAddress', 'houseNumber'] as const;
/** Server fields shown under another input: the point belongs to the picked base address. */
const RENAME: Record<string, string> = { lat: 'baseAddress', lng: 'baseAddress' };

/** /address/add and /address/update?id=: the same screen. */
export function AddressForm({ id, searchTips, onSaved }: AddressFormProps) {
  const t = useT();
  const editing = typeof id === 'number' && Number.isFinite(id);
  const q = useQuery(editing ? `address:${id}` : null, (signal) => getAddress(id ?? 0, signal));
  const title = t(editing ? 'address.editTitle' : 'address.addTitle');
  if (editing && !q.data) {
    return (
      <>
        <Header title={title} />
        <Loading error={q.error?.message} onReload={q.reload} />
      </>
    );
  }
  return (
    <>
      <Header title={title} />
      <AddressFields key={q.data?.id ?? 'new'} initial={q.data ?? null} searchTips={searchTips} onSaved={onSaved} />
    </>
  );
}

interface Draft {
  name: string;
  phone: string;
  baseAddress: string;
  houseNumber: string;
  lat: string;
  lng: string;
  cityName: string | null;
  provinceName: string | null;
  countyName: string | null;
  isDefault: boolean;
  /** male / female, '' not said. */
  sex: string;
  /** home / company / school, '' none. */
  tag: string;
}

export const SEXES = ['male', 'female'] as const;
export const TAGS = ['home', 'company', 'school'] as const;

function fromAddress(a: Address | null): Draft {
  return {
    name: a?.name ?? '',
    phone: a?.phone ?? '',
    baseAddress: a?.baseAddress ?? '',
    houseNumber: a?.houseNumber ?? '',
    lat: a?.lat ?? '',
    lng: a?.lng ?? '',
    cityName: a?.cityName ?? null,
    provinceName: a?.provinceName ?? null,
    countyName: a?.countyName ?? null,
    isDefault: a?.isDefault ?? false,
    sex: a?.sex ?? '',
    tag: a?.tag ?? '',
  };
}

/** One choice of a chip row; a second tap on the chosen one clears it (both are optional). */
function Chips<V extends string>({ label, options, value, onChange, word, testId }: { label: string; options: readonly V[]; value: string; onChange: (v: string) => void; word: (v: V) => string; testId: string }) {
  return (
    <div className="addrform__chips" role="radiogroup" aria-label={label} data-testid={testId}>
      <span className="addrform__chips-label">{label}</span>
      {options.map((o) => (
        <button
          key={o}
          type="button"
          role="radio"
          aria-checked={value === o}
          className={`chip${value === o ? ' chip--on' : ''}`}
          onClick={() => onChange(value === o ? '' : o)}
          data-testid={`${testId}-${o}`}
        >
          {word(o)}
        </button>
      ))}
    </div>
  );
}

export function AddressFields({ initial, searchTips, onSaved }: { initial: Address | null; searchTips: TipSearch; onSaved: (a: Address) => void }) {
  const t = useT();
  const [d, setD] = useState<Draft>(() => fromAddress(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [paste, setPaste] = useState('');
  const [pasteNote, setPasteNote] = useState<string | null>(null);
  const [keyword, setKeyword] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const settled = useDebouncedValue(keyword, ADDRESS_SEARCH_DEBOUNCE_MS);
  const tips = useQuery(settled && settled.trim() ? `tips:${settled.trim()}` : null, (signal) => searchTips((settled ?? '').trim(), undefined, signal));

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setD((x) => ({ ...x, [k]: v }));
    setErrors((e) => (k in e ? Object.fromEntries(Object.entries(e).filter(([f]) => f !== k)) : e));
  };

  const typeBase = (v: string) => {
    // A typed address has no point until a suggestion is picked.
    setD((x) => ({ ...x, baseAddress: v, lat: '', lng: '' }));
    setKeyword(v);
  };

  const pick = (poi: Poi) => {
    setD((x) => ({
      ...x,
      baseAddress: poi.address || poi.name,
      lat: poi.point.lat.toFixed(6),
      lng: poi.point.lng.toFixed(6),
      cityName: poi.city || null,
      countyName: poi.district || null,
    }));
    setKeyword(null);
    setPasteNote(null);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([f]) => f !== 'baseAddress')));
  };

  const readPaste = async () => {
    if (!paste.trim()) return;
    try {
      const r = await smartRead(paste);
      setD((x) => ({
        ...x,
        name: r.name ?? x.name,
        phone: r.phone ?? x.phone,
        houseNumber: r.houseNumber ?? x.houseNumber,
        ...(r.address ? { baseAddress: r.address, lat: '', lng: '' } : {}),
      }));
      setErrors({});
      if (r.address) {
        setKeyword(r.address);
        setPasteNote(t('address.smartDone'));
      }
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), TOAST_MS);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = Object.fromEntries(Object.entries(validateAddress(d)).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input: AddressInput = {
      name: d.name.trim(),
      phone: d.phone.replace(/[\s-]/g, ''),
      baseAddress: d.baseAddress.trim(),
      houseNumber: d.houseNumber.trim(),
      lat: d.lat,
      lng: d.lng,
      cityName: d.cityName,
      provinceName: d.provinceName,
      countyName: d.countyName,
      isDefault: d.isDefault,
      sex: d.sex || null,
      tag: d.tag || null,
    };
    setBusy(true);
    try {
      const saved = initial ? await updateAddress(initial.id, input) : await createAddress(input);
      showToast(t('address.saved'), TOAST_MS);
      onSaved(saved);
    } catch (err) {
      const fields: Record<string, string> = {};
      for (const [f, m] of Object.entries(fieldErrors(err))) {
        const name = RENAME[f] ?? f;
        if ((FIELDS as readonly string[]).includes(name)) fields[name] ??= m;
      }
      setErrors(fields);
      if (Object.keys(fields).length === 0) showToast(isApiError(err) || err instanceof Error ? err.message : String(err), TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  const showTips = keyword !== null && keyword.trim() !== '';
  const tipList = tips.data ?? [];
  const pinned = !!d.lat && !!d.lng && !errors.baseAddress;

  useEffect(() => {
    if (!showTips) return undefined;
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === 'Escape') setKeyword(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showTips]);

  return (
    <form className="addrform" onSubmit={(e) => void submit(e)} noValidate>
      <section className="smart">
        <h3 className="smart__title">{t('address.smartPaste')}</h3>
        <textarea
          className="smart__text"
          value={paste}
          onChange={(e) => setPaste(e.target.value)}
          placeholder={t('address.smartPlaceholder')}
          rows={3}
          maxLength={500}
          data-testid="smart-text"
          aria-label={t('address.smartPaste')}
        />
        <div className="smart__foot">
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void readPaste()} disabled={!paste.trim()} data-testid="smart-read">
            {t('address.smartRead')}
          </button>
        </div>
      </section>

      <section className="addrform__card">
        <FormField label={t('address.contact')} value={d.name} onChange={(v) => set('name', v)} error={errors.name} placeholder={t('address.contactPlaceholder')} maxLength={CONTACT_MAX + 4} testId="addr-name" />
        <Chips label={t('address.sex')} options={SEXES} value={d.sex} onChange={(v) => set('sex', v)} word={(v) => t(`address.sex.${v}`)} testId="addr-sex" />
        <FormField label={t('address.mobile')} value={d.phone} onChange={(v) => set('phone', v)} error={errors.phone} placeholder={t('address.mobilePlaceholder')} inputMode="numeric" maxLength={13} testId="addr-phone" />
        <div className="addrform__base">
          <FormField
            label={t('address.base')}
            value={d.baseAddress}
            onChange={typeBase}
            error={errors.baseAddress}
            placeholder={t('address.basePlaceholder')}
            autoComplete="off"
            testId="addr-base"
            hint={pinned ? <span className="addrform__pinned"><PinIcon /> {t('address.pinned')}</span> : pasteNote}
            addon={pinned ? <PinIcon className="addrform__pin" /> : undefined}
          />
          {showTips && (
            <ul className="tips" role="listbox" aria-label={t('address.base')} data-testid="addr-tips">
              {tips.loading && <li className="tips__note">{t('address.searching')}</li>}
              {!tips.loading && tipList.length === 0 && <li className="tips__note">{t('address.noTips')}</li>}
              {tipList.map((poi, i) => (
                <li key={`${poi.id}-${i}`}>
                  <button type="button" className="tips__item" onClick={() => pick(poi)} data-testid={`addr-tip-${i}`} role="option" aria-selected={false}>
                    <PinIcon className="tips__icon" />
                    <span>
                      <strong>{poi.name}</strong>
                      <small>{poi.address}</small>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <FormField label={t('address.house')} value={d.houseNumber} onChange={(v) => set('houseNumber', v)} error={errors.houseNumber} placeholder={t('address.housePlaceholder')} maxLength={HOUSE_MAX} testId="addr-house" />
        <Chips label={t('address.tag')} options={TAGS} value={d.tag} onChange={(v) => set('tag', v)} word={(v) => t(`address.tag.${v}`)} testId="addr-tag" />
        <label className="switchrow">
          <span>{t('address.setAsDefault')}</span>
          <input type="checkbox" role="switch" className="switch" checked={d.isDefault} onChange={(e) => set('isDefault', e.target.checked)} data-testid="addr-default" />
        </label>
      </section>
      <div className="addrform__foot">
        <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid="addr-save">
          {t('address.save')}
        </button>
      </div>
    </form>
  );
}
