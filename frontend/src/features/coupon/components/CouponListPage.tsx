import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import type { Coupon } from '@/lib/api/types';
import { COUPON_TABS, getOffers, type CouponTab } from '../api/coupons';
import { CouponCard } from './CouponCard';
import { ExchangeBox } from './ExchangeBox';
import { OffersSection } from './OffersSection';
import { TransferDialog } from './TransferDialog';
import { useCouponList } from './useCouponList';
import './Coupon.css';

export interface CouponListPageProps {
  /** The logged-in user (another login reads again). */
  who: string | number;
  initialTab?: CouponTab;
  /** The tab is kept in the address (?status=). */
  onTabChange?: (tab: CouponTab) => void;
}

const TOAST_MS = 2500;

/** Usable now: the coupons an order may still take (not locked by one). */
function usable(c: Coupon): boolean {
  return c.status === 'issued' || c.status === 'returned';
}

/**
 * /my/coupon/list (spec ordering §2, account §7): the coupons by tab (available with those an
 * order holds, used with those given away, expired), each with its rule, where it applies and its
 * validity; exchange by code; give a coupon to another account; the offers to collect.
 */
export function CouponListPage({ who, initialTab = 'available', onTabChange }: CouponListPageProps) {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const [tab, setTab] = useState<CouponTab>(initialTab);
  const list = useCouponList(tab, `${who}:${tab}:${lang}`);
  const offers = useQuery(`coupon-offers:${who}:${lang}`, (signal) => getOffers(signal));
  const [giving, setGiving] = useState<Coupon | null>(null);

  const choose = (next: CouponTab) => {
    if (next === tab) return;
    setTab(next);
    onTabChange?.(next);
  };
  /** Something new arrived in the available tab: show it. */
  const gained = () => {
    if (tab === 'available') list.reload();
    else choose('available');
    offers.reload();
  };

  return (
    <div className="cpage">
      <Header title={t('nav.coupons')} fallback="/my" />
      <div className="cpage__body">
        <ExchangeBox
          onExchanged={(c) => {
            showToast(t('coupon.exchange.done', { name: c.name }), TOAST_MS);
            gained();
          }}
        />
        <div className="seg cpage__tabs" role="tablist" aria-label={t('nav.coupons')}>
          {COUPON_TABS.map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={k === tab}
              className={`seg__btn${k === tab ? ' seg__btn--on' : ''}`}
              onClick={() => choose(k)}
              data-testid={`coupon-tab-${k}`}
            >
              {t(`coupon.tab.${k}` as MessageKey)}
            </button>
          ))}
        </div>
        {list.items.length === 0 && list.loading ? (
          <Loading />
        ) : list.items.length === 0 && list.error ? (
          <Loading error={list.error} reloadText={t('common.retry')} onReload={list.reload} />
        ) : list.items.length === 0 ? (
          <div data-testid="coupon-empty">
            <Empty text={t(`coupon.empty.${tab}` as MessageKey)} />
          </div>
        ) : (
          <>
            <ul className="cpage__list" data-testid="coupon-list" data-tab={tab} data-total={list.total}>
              {list.items.map((c) => (
                <CouponCard
                  key={c.couponCode}
                  coupon={c}
                  actions={
                    tab === 'available' && usable(c) ? (
                      <>
                        {c.transferable && (
                          <button type="button" className="link-btn cpn__act" onClick={() => setGiving(c)} data-testid={`coupon-${c.couponCode}-transfer`}>
                            {t('coupon.transfer')}
                          </button>
                        )}
                        <button type="button" className="btn btn--sm btn--primary cpn__use" onClick={() => void navigate('/menu')} data-testid={`coupon-${c.couponCode}-use`}>
                          {t('coupon.use')}
                        </button>
                      </>
                    ) : undefined
                  }
                />
              ))}
            </ul>
            {list.hasMore ? (
              <button type="button" className="btn btn--ghost btn--block" onClick={list.more} disabled={list.loading} data-testid="coupon-more">
                {list.loading ? t('common.loading') : t('coupon.more')}
              </button>
            ) : (
              <p className="cpage__end">{t('coupon.end')}</p>
            )}
            {list.error && (
              <p className="cpage__error" role="alert">
                {list.error}
              </p>
            )}
          </>
        )}
        {offers.data && <OffersSection offers={offers.data} onCollected={gained} />}
      </div>
      <TransferDialog coupon={giving} onClose={() => setGiving(null)} onTransferred={list.reload} />
    </div>
  );
}
