import { memo, type MouseEvent } from 'react';
import { useI18n, useT } from '@/lib/i18n';
import { dayKey, formatClock, formatDayTime } from '@/utils/time';
import { advanceLabelKey, shortOrderNo, stageLabelKey } from '../stages';
import { canUndo, formatElapsed, latenessOf, minutesTo, promiseOf, type UndoMark } from '../timing';
import type { TabletOrder } from '../types';
import { OrderFlags } from './OrderFlags';
import { OrderLines } from './OrderLines';

export interface OrderCardProps {
  order: TabletOrder;
  /** Server time, ticking every second (one clock for the whole board). */
  nowMs: number;
  flashing: boolean;
  undoMark: UndoMark | undefined;
  busy: boolean;
  onOpen: (order: TabletOrder) => void;
  onAccept: (order: TabletOrder) => void;
  onRefuse: (order: TabletOrder) => void;
  onAdvance: (order: TabletOrder) => void;
  onUndo: (order: TabletOrder) => void;
}

/** One order as the counter reads it: number, type, lines, the clocks, and the next move. */
export const OrderCard = memo(function OrderCard({ order, nowMs, flashing, undoMark, busy, onOpen, onAccept, onRefuse, onAdvance, onUndo }: OrderCardProps) {
  const t = useT();
  const lang = useI18n((s) => s.lang);
  const no = order.orderNo;
  const promise = promiseOf(order);
  const lateness = latenessOf(promise, nowMs);
  const advanceKey = advanceLabelKey(order.progress, order.orderType);
  const undoable = canUndo(undoMark, order, nowMs);
  const stop = (fn: (o: TabletOrder) => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn(order);
  };
  return (
    <article
      className={`tab-card tab-card--${lateness}${flashing ? ' tab-card--flash' : ''}${order.priority ? ' tab-card--priority' : ''}`}
      data-testid={`tablet-order-${no}`}
      data-priority={order.priority ? 'true' : 'false'}
      data-progress={order.progress}
      data-flashing={flashing ? 'true' : 'false'}
      data-late={lateness}
      onClick={() => onOpen(order)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(order);
      }}
      tabIndex={0}
      aria-label={`${shortOrderNo(no)} ${t(stageLabelKey(order.progress, order.orderType))}`}
    >
      <header className="tab-card__head">
        <span className="tab-card__short">#{shortOrderNo(no)}</span>
        {order.priority && (
          <span className="tab-prio" data-testid={`tablet-priority-${no}`} title={t('tablet.flag.priority')}>
            ★ {t('tablet.card.priority')}
          </span>
        )}
        <span className={`tab-type tab-type--${order.orderType}`}>{t(`orderType.${order.orderType === 1 ? 1 : order.orderType === 2 ? 2 : 0}`)}</span>
        {order.orderType === 2 && order.deskNo && <span className="tab-card__desk">{t('tablet.card.desk', { desk: order.deskNo })}</span>}
      </header>
      <div className="tab-card__no">{no}</div>
      {order.progress === 1 || order.progress === 40 ? <div className="tab-card__stage">{t(stageLabelKey(order.progress, order.orderType))}</div> : null}

      <div className="tab-card__clocks">
        <span data-testid={`tablet-since-paid-${no}`}>{t('tablet.card.sincePaid', { t: formatElapsed(order.paidAt ?? order.orderTime, nowMs) })}</span>
        <span data-testid={`tablet-in-stage-${no}`}>{t('tablet.card.inStage', { t: formatElapsed(order.stageSince, nowMs) })}</span>
      </div>
      {promise !== null && (
        <div className={`tab-card__due tab-card__due--${lateness}`} data-testid={`tablet-due-${no}`}>
          {/* A booking for another day says the day: "10:00" alone would read as today. */}
          {t('tablet.card.due', { time: dayKey(promise) === dayKey(nowMs) ? formatClock(promise) : formatDayTime(promise, lang, nowMs) })}
          {lateness === 'late' && <strong> · {t('tablet.card.late', { n: minutesTo(promise, nowMs) })}</strong>}
          {lateness === 'soon' && <strong> · {t('tablet.card.soon', { n: minutesTo(promise, nowMs) })}</strong>}
        </div>
      )}

      <OrderFlags order={order} nowMs={nowMs} skip={['desk', 'priority']} />
      <OrderLines order={order} />

      <footer className="tab-card__actions">
        {order.progress === 0 ? (
          <>
            <button type="button" className="tab-btn tab-btn--ghost" disabled={busy} onClick={stop(onRefuse)} data-testid={`tablet-refuse-${no}`}>
              {t('tablet.refuse')}
            </button>
            <button type="button" className="tab-btn tab-btn--go" disabled={busy} onClick={stop(onAccept)} data-testid={`tablet-accept-${no}`}>
              {t('tablet.accept')}
            </button>
          </>
        ) : (
          <>
            {undoable && undoMark && (
              <button type="button" className="tab-btn tab-btn--ghost" disabled={busy} onClick={stop(onUndo)} data-testid={`tablet-undo-${no}`}>
                {t('tablet.undo', { s: Math.ceil((undoMark.until - nowMs) / 1000) })}
              </button>
            )}
            {advanceKey && (
              <button type="button" className="tab-btn tab-btn--go" disabled={busy} onClick={stop(onAdvance)} data-testid={`tablet-advance-${no}`}>
                {t(advanceKey)}
              </button>
            )}
          </>
        )}
      </footer>
    </article>
  );
});
