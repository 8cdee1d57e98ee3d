import { useT } from '@/lib/i18n';
import type { Fen } from '@/lib/money';
import { Price } from './Price';
import { PlusIcon } from './Icons';
import './ProductTile.css';

export interface ProductTileProps {
  name: string;
  description?: string;
  image: string;
  priceFen: Fen;
  /** Show the price as "from" (pizzas with several sizes). */
  fromPrice?: boolean;
  soldOut?: boolean;
  badge?: string | null;
  onOpen: () => void;
  /** A separate "+" button that adds the product without opening it (products without choices). */
  onAdd?: () => void;
  /** The label of that button (e.g. "加入购物车 可口可乐"). */
  addLabel?: string;
  testId?: string;
}

/** A product in a list (menu, search results). */
export function ProductTile({ name, description, image, priceFen, fromPrice, soldOut, badge, onOpen, onAdd, addLabel, testId }: ProductTileProps) {
  const t = useT();
  const quick = onAdd !== undefined && !soldOut;
  const main = (
    <button
      type="button"
      className={`ptile${soldOut ? ' ptile--out' : ''}`}
      onClick={onOpen}
      data-testid={quick ? undefined : testId}
      aria-label={name}
    >
      <span className="ptile__img">
        <img src={image} alt="" loading="lazy" decoding="async" />
        {soldOut && <span className="ptile__out">{t('common.soldOut')}</span>}
        {badge && !soldOut && <span className="ptile__badge">{badge}</span>}
      </span>
      <span className="ptile__body">
        <span className="ptile__name">{name}</span>
        {description && <span className="ptile__desc">{description}</span>}
        <span className="ptile__foot">
          <Price fen={priceFen} from={fromPrice} size="sm" />
          {!quick && (
            <span className="ptile__add" aria-hidden="true">
              <PlusIcon />
            </span>
          )}
        </span>
      </span>
    </button>
  );
  if (!quick) return main;
  // Two buttons side by side (a button may not hold another): the "+" sits over the tile's corner.
  return (
    <div className="ptile-wrap" data-testid={testId}>
      {main}
      <button type="button" className="ptile__add ptile__add--btn" onClick={onAdd} aria-label={addLabel ?? name} data-testid={testId ? `${testId}-add` : undefined}>
        <PlusIcon />
      </button>
    </div>
  );
}
