import { CheckIcon } from '@/components/Icons';
import { useCountdown, useServerNow } from '@/lib/clock';
import { useLang, useT } from '@/lib/i18n';
import { useSocketStatus } from '@/lib/socket';
import type { Arrival, OrderStep } from '@/lib/api/types';
import { arrivalCounting, arrivalText } from '@/utils/arrival';
import { formatClock } from '@/utils/time';

/** The six steps with the time each was reached. */
export function StepTracker({ steps }: { steps: OrderStep[] }) {
  const t = useT();
  return (
    <ol className="ost-steps" aria-label={t('order.steps')} data-testid="order-steps">
      {steps.map((s) => (
        <li
          key={s.progress}
          className={`ost-step${s.done ? ' ost-step--done' : ''}${s.current ? ' ost-step--current' : ''}`}
          data-testid={`step-${s.progress}`}
          data-done={s.done ? 'true' : 'false'}
          data-current={s.current ? 'true' : 'false'}
          data-at={s.at ?? ''}
          aria-current={s.current ? 'step' : undefined}
        >
          <span className="ost-step__dot" aria-hidden="true">
            {s.done && !s.current ? <CheckIcon /> : null}
          </span>
          <span className="ost-step__label">{s.label}</span>
          <span className="ost-step__time" data-testid={`step-${s.progress}-time`}>
            {s.done && s.at ? formatClock(s.at) : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "18:32" or "1:02:05" left. */
export function formatLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/**
 * The server's arrival (utils/arrival: the same words on every screen), with a countdown on the
 * server clock (lib/clock: a wrong phone clock does not shift it) only while the server says one
 * makes sense: at once for an order for now, from two hours before for a booked one, never for a
 * fact (ready, delivered).
 */
export function ArrivalLine({ arrival, orderType, testId = 'order-eta' }: { arrival: Arrival; orderType: number; testId?: string }) {
  const t = useT();
  const lang = useLang();
  const nowMs = useServerNow();
  const counting = arrivalCounting(arrival, nowMs);
  const { msLeft, done } = useCountdown(counting ? arrival.at : null);
  return (
    <p className="ost-eta" data-testid={testId} data-eta={arrival.at} data-kind={arrival.kind}>
      <span data-testid={`${testId}-text`}>{arrivalText(arrival, orderType, lang, nowMs, t)}</span>
      {counting && (
        <strong className="ost-eta__left" data-testid={`${testId}-left`}>
          {done ? t(orderType === 0 ? 'order.eta.soonDelivery' : 'order.eta.soonReady') : t('order.eta.left', { left: formatLeft(msLeft) })}
        </strong>
      )}
    </p>
  );
}

/** Whether the page is following the order live (the "/" socket's state). */
export function LiveChip() {
  const t = useT();
  const { status } = useSocketStatus('/');
  if (status === 'idle') return null;
  const key = status === 'connected' ? 'order.live.on' : status === 'offline' ? 'order.live.off' : 'order.live.connecting';
  return (
    <span className={`ost-live ost-live--${status}`} data-testid="order-live" data-status={status} role="status">
      <span className="ost-live__dot" aria-hidden="true" />
      {t(key)}
    </span>
  );
}
