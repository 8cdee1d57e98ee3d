import { Price } from '@/components/Price';
import { ClockIcon, PhoneIcon, PinIcon } from '@/components/Icons';
import { useLang, useT } from '@/lib/i18n';
import { toFen } from '@/lib/money';
import type { Store } from '@/lib/api/types';
import { storeAddress, storeName, storeState } from '@/utils/storeDisplay';
import './StoreCard.css';

export interface StoreCardProps {
  store: Store;
  current?: boolean;
  onChoose: (store: Store) => void;
}

export function StoreCard({ store, current, onChoose }: StoreCardProps) {
  const t = useT();
  const lang = useLang();
  const state = storeState(store);
  const name = storeName(store, lang);
  return (
    <article className={`scard${current ? ' scard--current' : ''}`} data-testid={`store-${store.storeCode}`}>
      <button type="button" className="scard__main" onClick={() => onChoose(store)} aria-label={name}>
        <span className="scard__top">
          <span className="scard__name">{name}</span>
          {store.distance !== null && <span className="scard__dist">{t('store.distance', { d: store.distance })}</span>}
        </span>
        <span className="scard__badges">
          <span className={`badge badge--${state}`}>{t(`store.status.${state}`)}</span>
          {current && <span className="badge badge--blue">{t('store.current')}</span>}
          {store.serviceMethods.map((m) => (
            <span key={m} className="badge badge--line">
              {t(m === 0 ? 'store.method.0' : m === 1 ? 'store.method.1' : 'store.method.2')}
            </span>
          ))}
          {store.inRange === true && <span className="badge badge--ok">{t('store.inRange')}</span>}
          {store.inRange === false && <span className="badge badge--muted">{t('store.outOfRange')}</span>}
        </span>
        <span className="scard__line">
          <PinIcon className="scard__icon" />
          <span>{storeAddress(store, lang)}</span>
        </span>
        <span className="scard__line">
          <ClockIcon className="scard__icon" />
          <span>{t('store.hours', { hours: store.businessHourListText })}</span>
        </span>
        {store.stopStoreNotice && <span className="scard__notice">{store.stopStoreNotice}</span>}
        {store.serviceMethods.includes(0) && store.deliveryFee > 0 && (
          <span className="scard__fee">
            {t('store.deliveryFee')}{' '}
            <Price fen={toFen(store.deliveryFee)} size="sm" />
          </span>
        )}
      </button>
      <div className="scard__actions">
        {store.storeTel && (
          <a className="scard__tel" href={`tel:${store.storeTel}`} aria-label={`${t('store.call')} ${store.storeTel}`}>
            <PhoneIcon /> {store.storeTel}
          </a>
        )}
        <button type="button" className="btn btn--primary btn--sm" onClick={() => onChoose(store)}>
          {t('store.choose')}
        </button>
      </div>
    </article>
  );
}
