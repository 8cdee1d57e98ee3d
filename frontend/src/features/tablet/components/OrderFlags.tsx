import { useT } from '@/lib/i18n';
import { orderFlags, type FlagKind } from '../kitchen';
import type { TabletOrder } from '../types';

/**
 * The order's flags as chips: booked time, cash to collect, contactless, desk, invoice,
 * tableware. `full` also lists the invoice's details (the detail drawer).
 */
export function OrderFlags({ order, nowMs, skip = [], full = false }: { order: TabletOrder; nowMs: number; skip?: FlagKind[]; full?: boolean }) {
  const t = useT();
  const flags = orderFlags(order, t, nowMs).filter((f) => !skip.includes(f.kind));
  if (flags.length === 0) return null;
  return (
    <ul className="tab-flags" data-testid="tablet-flags">
      {flags.map((f) => (
        <li key={f.kind} className={`tab-flag tab-flag--${f.kind}`} data-testid={`tablet-flag-${f.kind}`}>
          {f.text}
          {full && f.kind === 'invoice' && (
            <span className="tab-flag__more">{f.more && f.more.length > 0 ? f.more.join(' · ') : t('tablet.flag.invoiceNoDetails')}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
