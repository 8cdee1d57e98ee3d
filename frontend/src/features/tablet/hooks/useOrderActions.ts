import { useCallback, useRef, useState } from 'react';
import { showToast } from '@/components/Toast';
import { isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { acceptOrder, advanceOrder, refuseOrder, undoOrder } from '../api/tablet';
import { useBoard } from '../store/board';
import { usePrint } from '../store/print';
import type { TabletMoveReply, TabletOrder } from '../types';

export interface OrderActions {
  /** Orders with a call in flight: their buttons are disabled (a double tap moves nothing twice). */
  busy: ReadonlySet<string>;
  accept: (order: TabletOrder) => Promise<boolean>;
  refuse: (order: TabletOrder, reason: string) => Promise<boolean>;
  advance: (order: TabletOrder) => Promise<boolean>;
  undo: (order: TabletOrder) => Promise<boolean>;
}

/**
 * The card actions. Each answer carries the order as it now stands and goes straight onto the
 * board (the socket's copy of the same move then changes nothing). A 409 means another tablet
 * moved the order first: the queue is reloaded so the card shows where it really is.
 */
export function useOrderActions(): OrderActions {
  const t = useT();
  // The ref decides (synchronously, so a double tap is refused); the state re-renders the buttons.
  const inflight = useRef(new Set<string>());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const run = useCallback(
    async (order: TabletOrder, call: () => Promise<TabletMoveReply>, stepped?: 'advance' | 'undo'): Promise<boolean> => {
      const no = order.orderNo;
      if (inflight.current.has(no)) return false;
      inflight.current.add(no);
      setBusy(new Set(inflight.current));
      try {
        const reply = await call();
        useBoard.getState().adopt(reply.order, stepped);
        if (reply.refund === 'refunded') showToast(t('tablet.refuse.refunded'));
        else if (reply.refund === 'failed') showToast(t('tablet.refuse.refundFailed'), 5000);
        return true;
      } catch (e) {
        if (isApiError(e) && e.status === 409) {
          showToast(t('tablet.moved'));
          void useBoard.getState().reload();
        } else if (!(isApiError(e) && e.isAuth)) {
          showToast(e instanceof Error ? e.message : String(e));
        }
        return false;
      } finally {
        inflight.current.delete(no);
        setBusy(new Set(inflight.current));
      }
    },
    [t],
  );

  return {
    busy,
    accept: useCallback(
      async (o) => {
        const ok = await run(o, () => acceptOrder(o.orderNo));
        // The ticket of the order as accepted (the board's copy is the answer's).
        const accepted = useBoard.getState().queue.orders[o.orderNo];
        if (ok && usePrint.getState().settings.autoPrint) usePrint.getState().print(accepted ?? o);
        return ok;
      },
      [run],
    ),
    refuse: useCallback((o, reason) => run(o, () => refuseOrder(o.orderNo, reason)), [run]),
    advance: useCallback((o) => run(o, () => advanceOrder(o.orderNo, o.progress), 'advance'), [run]),
    undo: useCallback((o) => run(o, () => undoOrder(o.orderNo, o.progress), 'undo'), [run]),
  };
}
