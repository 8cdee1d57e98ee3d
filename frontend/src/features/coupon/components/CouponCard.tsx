import type { ReactNode } from 'react';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import type { Coupon } from '@/lib/api/types';
import { formatDay, lastDay } from '../dates';
import { isProductCoupon } from '../picker';

export interface CouponCardProps {
  coupon: Coupon;
  /** The card's actions (transfer, use), when its tab has any. */
  actions?: ReactNode;
}

const KINDS = ['cashOff', 'percentOff', 'freeDelivery', 'productAtPrice', 'exchangeProduct'];

/** Shown on the card for every state but the plain usable one (issued, returned). */
function statusShown(coupon: Coupon): boolean {
  return coupon.status !== 'issued' && coupon.status !== 'returned';
}

/**
 * One coupon as a ticket: on the left what it gives (the rule in plain words) and its kind; on
 * the right its name, where it applies, its validity, its state (下单中 while an order holds it,
 * 即将过期 in its last three days), the product for a product coupon.
 */
export function CouponCard({ coupon, actions }: CouponCardProps) {
  const t = useT();
  const lang = useLang();
  const dim = coupon.status === 'used' || coupon.status === 'expired' || coupon.status === 'transferred';
  const product = isProductCoupon(coupon.kind) && coupon.imageUrl;
  return (
    <li className={`cpn${dim ? ' cpn--dim' : ''}`} data-testid={`coupon-${coupon.couponCode}`} data-status={coupon.status} data-template={coupon.templateCode}>
      <div className="cpn__value">
        {product ? <img className="cpn__img" src={coupon.imageUrl ?? ''} alt="" loading="lazy" onError={(e) => (e.currentTarget.hidden = true)} /> : null}
        <strong className="cpn__rule" data-testid={`coupon-${coupon.couponCode}-rule`}>
          {coupon.ruleText}
        </strong>
        {KINDS.includes(coupon.kind) && <small className="cpn__kind">{t(`coupon.kind.${coupon.kind}` as MessageKey)}</small>}
      </div>
      <div className="cpn__body">
        <div className="cpn__top">
          <span className="cpn__name">{coupon.name}</span>
          {coupon.expiringSoon && !dim && (
            <span className="badge cpn__soon" data-testid={`coupon-${coupon.couponCode}-soon`}>
              {t('coupon.expiringSoon')}
            </span>
          )}
        </div>
        <p className="cpn__scope">{t('coupon.scope', { scope: coupon.scopeText })}</p>
        <p className="cpn__valid">{t('coupon.valid', { from: formatDay(coupon.validFrom, lang), to: formatDay(lastDay(coupon.validTo), lang) })}</p>
        {(statusShown(coupon) || actions) && (
          <div className="cpn__foot">
            {statusShown(coupon) && (
              <span className={`badge cpn__status cpn__status--${coupon.status}`} data-testid={`coupon-${coupon.couponCode}-status`}>
                {coupon.statusLabel}
                {coupon.orderNo ? ` · ${t('coupon.order', { orderNo: coupon.orderNo })}` : ''}
              </span>
            )}
            {actions && <span className="cpn__actions">{actions}</span>}
          </div>
        )}
      </div>
    </li>
  );
}
