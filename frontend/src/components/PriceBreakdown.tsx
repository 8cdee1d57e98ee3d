import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatFen } from '@/lib/money';
import type { PriceBreakdown as Breakdown } from '@/lib/api/types';
import { breakdownRows, type PointsLine } from '@/utils/breakdown';
import { Price } from './Price';
import './PriceBreakdown.css';

export interface PriceBreakdownProps {
  breakdown: Breakdown;
  /** Delivery: show the fee row even when it is 0. */
  delivery: boolean;
  /** A row per line (default); false: one products row, where the page lists the lines already. */
  lines?: boolean;
  /** The payable row's label (e.g. "pay on delivery"); "to pay" by default. */
  payableLabel?: MessageKey;
  /** The tablet's fixed pixel sizes instead of the app's rem. */
  variant?: 'app' | 'tablet';
  testId?: string;
  /** The payable row's test id (pages keep their own: checkout-total, order-amount). */
  payableTestId?: string;
  /** Points spent on it (issue 23): their row, and the payable less them when the breakdown has them not. */
  points?: PointsLine | null;
}

/**
 * The bill a person can check: each line "list price × quantity", each discount its own row
 * (which offer, how much), the delivery fee and its waiver, then the payable. The figures are the
 * server's, shown as they are; they add up to the payable to the fen.
 */
export function PriceBreakdown({ breakdown, delivery, lines = true, payableLabel = 'breakdown.payable', variant = 'app', testId = 'price-breakdown', payableTestId = 'breakdown-payable', points = null }: PriceBreakdownProps) {
  const t = useT();
  const lang = useLang();
  const rows = breakdownRows(breakdown, lang, delivery, lines, points);
  return (
    <div className={`pbd pbd--${variant}`} data-testid={testId}>
      <ul className="pbd__rows">
        {rows.map((row) => {
          switch (row.kind) {
            case 'line':
              return (
                <li key={`l-${row.id}`} className="pbd__row pbd__row--line" data-testid={`breakdown-line-${row.id}`}>
                  <span className="pbd__label">
                    {row.name}
                    {row.spec && <small className="pbd__spec">{row.spec}</small>}
                  </span>
                  <span className="pbd__calc">{t('breakdown.unitTimesQty', { price: formatFen(row.unit), qty: row.quantity })}</span>
                  <span className="pbd__amt">{formatFen(row.amount)}</span>
                </li>
              );
            case 'products':
              return (
                <li key="products" className="pbd__row" data-testid="breakdown-products">
                  <span className="pbd__label">{t('breakdown.products')}</span>
                  <span className="pbd__amt">{formatFen(row.amount)}</span>
                </li>
              );
            case 'discount':
              return (
                <li key={`d-${row.id}`} className="pbd__row pbd__row--off" data-testid={`breakdown-discount-${row.id}`}>
                  <span className="pbd__label">
                    <span className="pbd__tag">{t(row.level === 'coupon' ? 'breakdown.coupon' : row.level === 'order' ? 'breakdown.orderOffer' : 'breakdown.offer')}</span>
                    {row.name}
                  </span>
                  <span className="pbd__amt">-{formatFen(row.amount)}</span>
                </li>
              );
            case 'fee':
              return (
                <li key="fee" className="pbd__row pbd__row--fee" data-testid="breakdown-fee">
                  <span className="pbd__label">{t('breakdown.deliveryFee')}</span>
                  <span className="pbd__amt">{formatFen(row.amount)}</span>
                </li>
              );
            case 'waived':
              return (
                <li key="waived" className="pbd__row pbd__row--off" data-testid="breakdown-waived">
                  <span className="pbd__label">{t('breakdown.feeWaived')}</span>
                  <span className="pbd__amt">-{formatFen(row.amount)}</span>
                </li>
              );
            case 'couponFee':
              return (
                <li key="couponFee" className="pbd__row pbd__row--off" data-testid="breakdown-coupon-fee">
                  <span className="pbd__label">{t('breakdown.couponFee')}</span>
                  <span className="pbd__amt">-{formatFen(row.amount)}</span>
                </li>
              );
            case 'points':
              return (
                <li key="points" className="pbd__row pbd__row--off" data-testid="breakdown-points" data-points={row.points}>
                  <span className="pbd__label">
                    <span className="pbd__tag">{t('breakdown.points')}</span>
                    {t('breakdown.pointsN', { n: row.points })}
                  </span>
                  <span className="pbd__amt">-{formatFen(row.amount)}</span>
                </li>
              );
            case 'payable':
              return (
                <li key="payable" className="pbd__row pbd__row--total" data-testid={payableTestId} data-amount={formatFen(row.amount)}>
                  <span className="pbd__label">{t(payableLabel)}</span>
                  <Price fen={row.amount} size={variant === 'tablet' ? 'sm' : 'md'} />
                </li>
              );
          }
        })}
      </ul>
    </div>
  );
}
