import { useT } from '@/lib/i18n';
import { lineDetails } from '../kitchen';
import type { TabletOrder } from '../types';

/**
 * What to make: each line with its quantity first and large, then its details (size and crust,
 * the flavours by half or quarter, sauce, extras, toppings taken off, combo items); the remark.
 */
export function OrderLines({ order }: { order: TabletOrder }) {
  const t = useT();
  return (
    <>
      <ul className="tab-lines">
        {order.lines.map((line, i) => (
          <li key={i} className="tab-line" data-testid="tablet-line">
            <span className={`tab-line__qty${line.quantity > 1 ? ' tab-line__qty--many' : ''}`} data-testid="tablet-line-qty">
              {line.quantity}×
            </span>
            <div className="tab-line__body">
              <div className="tab-line__name">{line.name}</div>
              {lineDetails(line, t).map((d, j) => (
                <div key={j} className={`tab-line__d tab-line__d--${d.kind}`} data-testid={`tablet-line-${d.kind}`}>
                  {d.text}
                </div>
              ))}
            </div>
          </li>
        ))}
      </ul>
      {order.remark && (
        <div className="tab-lines__remark" data-testid="tablet-remark">
          {t('tablet.card.remark', { text: order.remark })}
        </div>
      )}
    </>
  );
}
