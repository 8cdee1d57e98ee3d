import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { ChevronRightIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { Price } from '@/components/Price';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { toFen } from '@/lib/money';
import type { OrderSummary } from '@/lib/api/types';
import type { OrderListFilter } from '@/lib/orders';
import { formatDateTime } from '@/utils/time';
import { listOrders } from '../api/order';
import { ORDER_FILTERS, isCancelledState, isUnpaidState, orderStateLabel, orderStateTone } from '../labels';
import './Order.css';

function asFilter(v: string | null): OrderListFilter {
  return (ORDER_FILTERS as readonly string[]).includes(v ?? '') ? (v as OrderListFilter) : 'all';
}

interface ListState {
  key: string;
  list: OrderSummary[];
  page: number;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
}

/** /order: the user's orders by filter (all, unpaid, active, completed, cancelled), 10 at a time. */
export function OrderListPage({ onOrderMore }: { onOrderMore: () => void }) {
  const t = useT();
  const lang = useLang();
  const [params, setParams] = useSearchParams();
  const filter = asFilter(params.get('state'));
  const key = `${filter}:${lang}`;
  const [state, setState] = useState<ListState>({ key: '', list: [], page: 0, hasMore: false, loading: true, error: null });
  const inflight = useRef<AbortController | null>(null);

  const load = useCallback(
    (page: number) => {
      inflight.current?.abort();
      const controller = new AbortController();
      inflight.current = controller;
      setState((s) => ({ ...(s.key === key ? s : { key, list: [], page: 0, hasMore: false }), loading: true, error: null }));
      listOrders(filter, page, controller.signal).then(
        (res) => {
          if (controller.signal.aborted) return;
          setState((s) => {
            const before = s.key === key && page > 1 ? s.list : [];
            const seen = new Set(before.map((o) => o.orderNo));
            return { key, list: [...before, ...res.list.filter((o) => !seen.has(o.orderNo))], page: res.page || page, hasMore: res.hasMore, loading: false, error: null };
          });
        },
        (e: unknown) => {
          if (controller.signal.aborted) return;
          setState((s) => ({ ...s, key, loading: false, error: e instanceof Error ? e.message : String(e) }));
        },
      );
    },
    [filter, key],
  );

  useEffect(() => {
    load(1);
    return () => inflight.current?.abort();
  }, [load]);

  const current = state.key === key;
  const list = current ? state.list : [];
  return (
    <div className="olist">
      <Header title={t('order.list.title')} fallback="/" />
      <div className="olist__tabs" role="tablist" aria-label={t('order.list.title')}>
        {ORDER_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            role="tab"
            aria-selected={f === filter}
            className={`olist__tab${f === filter ? ' olist__tab--on' : ''}`}
            onClick={() => setParams(f === 'all' ? {} : { state: f }, { replace: true })}
            data-testid={`order-filter-${f}`}
          >
            {t(`order.filter.${f}` as MessageKey)}
          </button>
        ))}
      </div>
      <div className="olist__body" data-testid="order-list" data-filter={filter}>
        {list.length === 0 && (state.loading || !current) ? (
          <Loading />
        ) : list.length === 0 && state.error ? (
          <Loading error={state.error} reloadText={t('common.retry')} onReload={() => load(1)} />
        ) : list.length === 0 ? (
          <Empty
            text={t('order.list.empty')}
            action={
              <button type="button" className="btn btn--primary" onClick={onOrderMore}>
                {t('order.list.goOrder')}
              </button>
            }
          />
        ) : (
          <>
            <ul className="olist__list">
              {list.map((o) => (
                <OrderCard key={o.orderNo} order={o} />
              ))}
            </ul>
            {state.hasMore ? (
              <button type="button" className="btn btn--ghost btn--block" onClick={() => load(state.page + 1)} disabled={state.loading} data-testid="order-more">
                {state.loading ? t('common.loading') : t('order.list.more')}
              </button>
            ) : (
              <p className="olist__end" data-testid="order-end">
                {t('order.list.end')}
              </p>
            )}
            {state.error && <p className="olist__error">{state.error}</p>}
          </>
        )}
      </div>
    </div>
  );
}

function OrderCard({ order }: { order: OrderSummary }) {
  const t = useT();
  const navigate = useNavigate();
  const no = encodeURIComponent(order.orderNo);
  const stateKey = orderStateLabel(order.state);
  const label = stateKey === 'order.state.unknown' && order.stateLabel ? order.stateLabel : t(stateKey);
  const names = order.items
    .slice(0, 2)
    .map((i) => `${i.name}×${i.quantity}`)
    .join(t('common.listSep'));
  const type = order.orderType === 1 || order.orderType === 2 ? order.orderType : 0;
  const active = !isUnpaidState(order.state) && !isCancelledState(order.state) && order.state !== 8;
  return (
    <li className="ocard" data-testid={`order-card-${order.orderNo}`}>
      <button type="button" className="ocard__main" onClick={() => void navigate(`/order/info?orderNo=${no}`)}>
        <span className="ocard__top">
          <strong className="ocard__store">{order.storeName || order.storeCode}</strong>
          <span className={`ocard__state ocard__state--${orderStateTone(order.state)}`} data-testid={`order-card-${order.orderNo}-state`}>
            {label}
          </span>
          <ChevronRightIcon className="ocard__chev" />
        </span>
        <span className="ocard__meta">
          {t(`orderType.${type}` as MessageKey)} · {formatDateTime(order.createdAt || order.orderTime)}
        </span>
        <span className="ocard__items">
          <span className="ocard__thumbs" aria-hidden="true">
            {order.items.slice(0, 3).map((i, idx) => (
              <img key={idx} src={i.imageUrl} alt="" loading="lazy" />
            ))}
          </span>
          <span className="ocard__names">
            {names}
            {order.itemCount > 2 ? ` ${t('order.list.itemCount', { n: order.itemCount })}` : ''}
          </span>
          <Price fen={toFen(order.orderAmount)} size="sm" />
        </span>
      </button>
      <span className="ocard__actions">
        {isUnpaidState(order.state) && (
          <button type="button" className="btn btn--primary btn--sm" onClick={() => void navigate(`/order/status?orderNo=${no}`)} data-testid={`order-card-${order.orderNo}-pay`}>
            {t('pay.now')}
          </button>
        )}
        {active && (
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void navigate(`/order/status?orderNo=${no}`)} data-testid={`order-card-${order.orderNo}-track`}>
            {t('order.track')}
          </button>
        )}
        {order.state === 8 && (
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void navigate(`/order/comment?orderNo=${no}`)} data-testid={`order-card-${order.orderNo}-comment`}>
            {t('order.comment.open')}
          </button>
        )}
        {(order.state === 8 || isCancelledState(order.state)) && (
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void navigate(`/order/oneMoreOrder?orderNo=${no}`)} data-testid={`order-card-${order.orderNo}-again`}>
            {t('order.again')}
          </button>
        )}
      </span>
    </li>
  );
}
