import { useState } from 'react';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import type { Coupon, CouponOffer } from '@/lib/api/types';
import { collectOffer } from '../api/coupons';

export interface OffersSectionProps {
  offers: CouponOffer[];
  /** Collected: the page reads its lists again. */
  onCollected: (coupon: Coupon) => void;
}

const TOAST_MS = 2500;

/** What the offer's button says and whether it can be pressed. */
export function offerState(o: CouponOffer): 'collect' | 'soldOut' | 'collected' {
  if (o.canCollect) return 'collect';
  if (o.remaining !== null && o.remaining <= 0) return 'soldOut';
  return o.collected > 0 ? 'collected' : 'soldOut';
}

/** The coupons on offer (collectCoupon/{ruleId}): 领取 while it can be, else 已领完 or 已领取. */
export function OffersSection({ offers, onCollected }: OffersSectionProps) {
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const collect = async (o: CouponOffer) => {
    if (busy) return;
    setBusy(o.ruleId);
    try {
      const coupon = await collectOffer(o.ruleId);
      showToast(t('coupon.offers.done', { name: coupon.name }), TOAST_MS);
      onCollected(coupon);
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), TOAST_MS);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="cpn-offers" aria-labelledby="coupon-offers-title" data-testid="coupon-offers">
      <h2 className="cpn-offers__title" id="coupon-offers-title">
        {t('coupon.offers.title')}
      </h2>
      {offers.length === 0 ? (
        <p className="cpn-offers__empty">{t('coupon.offers.empty')}</p>
      ) : (
        <ul className="cpn-offers__list">
          {offers.map((o) => {
            const state = offerState(o);
            return (
              <li key={o.ruleId} className={`cpn-offer cpn-offer--${state}`} data-testid={`offer-${o.ruleId}`} data-state={state}>
                <strong className="cpn-offer__rule">{o.ruleText}</strong>
                <span className="cpn-offer__body">
                  <span className="cpn-offer__name">{o.name}</span>
                  <small className="cpn-offer__scope">{o.scopeText}</small>
                  <small className="cpn-offer__valid">
                    {o.validText}
                    {o.remaining !== null && o.remaining > 0 && ` · ${t('coupon.offers.remaining', { n: o.remaining })}`}
                  </small>
                </span>
                <button
                  type="button"
                  className={`btn btn--sm ${state === 'collect' ? 'btn--primary' : 'btn--ghost'} cpn-offer__go`}
                  disabled={state !== 'collect' || busy !== null}
                  onClick={() => void collect(o)}
                  data-testid={`offer-${o.ruleId}-collect`}
                >
                  {t(state === 'collect' ? 'coupon.offers.collect' : state === 'soldOut' ? 'coupon.offers.soldOut' : 'coupon.offers.collected')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
