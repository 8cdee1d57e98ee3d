import { CheckIcon } from '@/components/Icons';
import { useCountdown } from '@/lib/clock';
import { useT } from '@/lib/i18n';
import { useSocketStatus } from '@/lib/socket';
import type { OrderStep } from '@/lib/api/types';
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

/** The ETA with a countdown on the server clock (lib/clock): a wrong phone clock does not shift it. */
export function EtaLine({ eta, orderType }: { eta: number; orderType: number }) {
  const t = useT();
  const { msLeft, done } = useCountdown(eta);
  const at = formatClock(eta);
  return (
    <p className="ost-eta" data-testid="order-eta" data-eta={eta}>
      <span>{orderType === 0 ? t('order.eta.delivery', { time: at }) : t('order.eta.ready', { time: at })}</span>
      <strong className="ost-eta__left" data-testid="order-eta-left">
        {done ? t(orderType === 0 ? 'order.eta.soonDelivery' : 'order.eta.soonReady') : t('order.eta.left', { left: formatLeft(msLeft) })}
      </strong>
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
