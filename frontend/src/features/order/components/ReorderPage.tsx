import { useEffect, useRef, useState } from 'react';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useT } from '@/lib/i18n';
import type { ReorderReply } from '@/lib/api/types';
import { getOrder, reorder } from '../api/order';
import './Order.css';

export interface ReorderResult extends ReorderReply {
  /** The skipped products' names (from the order's lines; the code when unknown). */
  skippedNames: string[];
}

// One call per order at a time: StrictMode's second mount (or a double tap) shares the first.
const inflight = new Map<string, Promise<ReorderResult>>();

async function reorderNamed(orderNo: string): Promise<ReorderResult> {
  const reply = await reorder(orderNo);
  let names = reply.skipped;
  if (reply.skipped.length > 0) {
    const order = await getOrder(orderNo).catch(() => null);
    const byCode = new Map((order?.lines ?? []).map((l) => [l.productCode ?? l.prodCode ?? '', l.prodName ?? '']));
    names = reply.skipped.map((code) => byCode.get(code) || code);
  }
  return { ...reply, skippedNames: names };
}

function once(orderNo: string): Promise<ReorderResult> {
  let p = inflight.get(orderNo);
  if (!p) {
    p = reorderNamed(orderNo).finally(() => setTimeout(() => inflight.delete(orderNo), 0));
    inflight.set(orderNo, p);
  }
  return p;
}

/**
 * /order/oneMoreOrder?orderNo=: the order's products back in the cart (POST reorder), then the
 * app goes to /order/submit (spec ordering §2); products that cannot be ordered now are named.
 */
export function ReorderPage({ orderNo, onDone }: { orderNo: string; onDone: (result: ReorderResult) => void }) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    if (!orderNo) return undefined;
    let alive = true;
    once(orderNo).then(
      (result) => {
        if (alive) done.current(result);
      },
      (e: unknown) => {
        if (alive) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      alive = false;
    };
  }, [orderNo, attempt]);
  return (
    <div className="ost">
      <Header title={t('order.again')} fallback="/order" />
      {!orderNo ? (
        <Loading page error={t('order.notFound')} />
      ) : error ? (
        <Loading
          page
          error={error}
          reloadText={t('common.retry')}
          onReload={() => {
            setError(null);
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <Loading page text={t('order.againLoading')} />
      )}
    </div>
  );
}
