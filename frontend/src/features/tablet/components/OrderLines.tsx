import { useT } from '@/lib/i18n';
import type { TabletOrder } from '../types';

/** What to make: lines with halves and options, the remark, the tableware. */
export function OrderLines({ order }: { order: TabletOrder }) {
  const t = useT();
  return (
    <>
      <ul className="tab-lines">
        {order.lines.map((line, i) => (
          <li key={i}>
            <span className="tab-lines__qty">{line.quantity}×</span> {line.name}
            {line.halves.length > 0 && <div className="tab-lines__opt">{t('tablet.card.halves', { text: line.halves.join(' | ') })}</div>}
            {line.options.length > 0 && <div className="tab-lines__opt">{line.options.join('，')}</div>}
          </li>
        ))}
      </ul>
      {order.remark && <div className="tab-lines__remark">{t('tablet.card.remark', { text: order.remark })}</div>}
      <div className="tab-lines__ware">{order.tableware > 0 ? t('tablet.card.tableware', { n: order.tableware }) : t('tablet.card.noTableware')}</div>
    </>
  );
}
