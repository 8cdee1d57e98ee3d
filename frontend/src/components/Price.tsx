import { fenToYuanText, type Fen } from '@/lib/money';
import { useT } from '@/lib/i18n';
import './Price.css';

export interface PriceProps {
  fen: Fen;
  /** "from" price (pizzas with several sizes). */
  from?: boolean;
  size?: 'sm' | 'md' | 'lg';
  strike?: boolean;
  className?: string;
}

/** ¥89.90 with a small currency sign and decimals. */
export function Price({ fen, from, size = 'md', strike, className }: PriceProps) {
  const t = useT();
  const text = fenToYuanText(fen);
  const [int, dec] = text.split('.');
  const body = (
    <span className={`price__num${strike ? ' price__num--strike' : ''}`}>
      <small>¥</small>
      {int}
      <small>.{dec}</small>
    </span>
  );
  const label = `¥${text}`;
  if (!from) {
    return (
      <span className={`price price--${size} ${className ?? ''}`} aria-label={label} data-price={label}>
        {body}
      </span>
    );
  }
  const [before, after] = t('common.from', { price: '\u0000' }).split('\u0000');
  return (
    <span className={`price price--${size} ${className ?? ''}`} aria-label={t('common.from', { price: label })} data-price={label}>
      {before && <span className="price__from">{before}</span>}
      {body}
      {after && <span className="price__from">{after}</span>}
    </span>
  );
}
