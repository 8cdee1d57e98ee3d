import { translate, type TFunction } from '@/lib/i18n';
import { ticketModel } from '../kitchen';
import { shortOrderNo } from '../stages';
import type { Paper } from '../store/print';
import type { TabletOrder } from '../types';

/** The ticket always reads zh, the kitchen's language, whatever the tablet's screen shows. */
const zh: TFunction = (key, params) => translate('zh', key, params);

/** The kitchen ticket as it prints, 80 mm or 58 mm wide. */
export function KitchenTicket({ order, paper, nowMs }: { order: TabletOrder; paper: Paper; nowMs: number }) {
  const m = ticketModel(order, zh, nowMs, shortOrderNo(order.orderNo));
  return (
    <article className={`tab-ticket tab-ticket--${paper}`} data-testid="tablet-ticket" data-paper={paper} lang="zh-CN">
      <header className="tab-ticket__head">
        <div className="tab-ticket__store">{m.store}</div>
        <div className="tab-ticket__title">{zh('tablet.ticket.title')}</div>
        <div className="tab-ticket__no">
          #{m.shortNo} <span className="tab-ticket__type">{m.type}</span>
        </div>
        <div className="tab-ticket__full">{m.orderNo}</div>
      </header>
      <div className="tab-ticket__meta">
        <div>{zh('tablet.ticket.placed', { time: m.placedAt })}</div>
        {m.booked && <div className="tab-ticket__strong">{m.booked}</div>}
        {m.desk && <div className="tab-ticket__strong">{zh('tablet.ticket.desk', { desk: m.desk })}</div>}
      </div>
      <ol className="tab-ticket__lines">
        {m.lines.map((l, i) => (
          <li key={i}>
            <div className="tab-ticket__line">
              <span className="tab-ticket__qty">{l.quantity}×</span>
              <span>{l.name}</span>
            </div>
            {l.details.map((d, j) => (
              <div key={j} className={`tab-ticket__d tab-ticket__d--${d.kind}`}>
                {d.text}
              </div>
            ))}
          </li>
        ))}
      </ol>
      <div className="tab-ticket__count">{zh(m.itemCount === 1 ? 'tablet.ticket.items.one' : 'tablet.ticket.items.other', { n: m.itemCount })}</div>
      <ul className="tab-ticket__flags">
        {m.flags.map((f) => (
          <li key={f.kind}>
            {f.text}
            {f.more?.map((x) => (
              <div key={x}>{x}</div>
            ))}
          </li>
        ))}
      </ul>
      {m.remark && <div className="tab-ticket__remark">{zh('tablet.ticket.remark', { text: m.remark })}</div>}
    </article>
  );
}
