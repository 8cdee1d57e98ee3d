import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '@/lib/api';
import { useT, type MessageKey } from '@/lib/i18n';
import { formatYuan } from '@/lib/money';
import { formatClock } from '@/utils/time';
import { fetchHistory } from '../api/tablet';
import { shortOrderNo } from '../stages';
import { usePrint } from '../store/print';
import type { TabletOrder } from '../types';
import { Modal } from './Modal';
import { OrderLines } from './OrderLines';

const STATE_KEYS: Record<number, MessageKey> = { 8: 'tablet.history.state.8', 2: 'tablet.history.state.2', 3: 'tablet.history.state.3' };

/** Today's completed, refused and cancelled orders, newest first, with a search and "load more". */
export function HistoryPanel({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const [asked, setAsked] = useState('');
  const [list, setList] = useState<TabletOrder[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const load = useCallback(async (kw: string, p: number) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    try {
      const answer = await fetchHistory(kw, p, ctl.signal);
      if (ctl.signal.aborted) return;
      setList((prev) => (p === 1 ? answer.list : [...prev, ...answer.list]));
      setTotal(answer.total);
      setPage(answer.page);
      setHasMore(answer.hasMore);
      setError(null);
    } catch (e) {
      if (ctl.signal.aborted) return;
      setError(isApiError(e) || e instanceof Error ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void load(asked, 1);
    return () => abort.current?.abort();
  }, [asked, load]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked(keyword.trim());
  };

  return (
    <Modal title={t('tablet.history.title')} onClose={onClose} variant="side" testId="tablet-history">
      <form className="tab-history__search" onSubmit={submit} role="search">
        <input
          className="tab-input"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          placeholder={t('tablet.history.search')}
          aria-label={t('tablet.history.search')}
          maxLength={50}
          inputMode="search"
          data-testid="tablet-history-search"
        />
        <button type="submit" className="tab-btn" data-testid="tablet-history-go">
          {t('tablet.history.searchGo')}
        </button>
      </form>
      {error && (
        <div className="tab-error" role="alert">
          {error}
        </div>
      )}
      {total !== null && (
        <p className="tab-muted" data-testid="tablet-history-count" data-count={total}>
          {total === 0 ? t(asked ? 'tablet.history.noMatch' : 'tablet.history.empty') : t('tablet.history.count', { n: total })}
        </p>
      )}
      <ul className="tab-history">
        {list.map((o) => {
          const type = o.orderType === 1 ? 1 : o.orderType === 2 ? 2 : 0;
          const expanded = open === o.orderNo;
          return (
            <li key={o.orderNo} className={`tab-history__item tab-history__item--${o.state}`} data-testid={`tablet-history-${o.orderNo}`}>
              <button type="button" className="tab-history__row" onClick={() => setOpen(expanded ? null : o.orderNo)} aria-expanded={expanded}>
                <strong className="tab-history__short">#{shortOrderNo(o.orderNo)}</strong>
                <span className={`tab-type tab-type--${type}`}>{t(`orderType.${type}`)}</span>
                <span className={`tab-history__state tab-history__state--${o.state}`}>{t(STATE_KEYS[o.state] ?? 'tablet.detail.closed')}</span>
                <span className="tab-muted">{o.closedAt ? t('tablet.history.closedAt', { time: formatClock(o.closedAt) }) : ''}</span>
                <span className="tab-history__amount">{formatYuan(o.orderAmount)}</span>
              </button>
              {expanded && (
                <div className="tab-history__more">
                  <div className="tab-muted">
                    {o.orderNo} · {o.receiverMobile}
                  </div>
                  {o.closeNote && <div>{t('tablet.history.reason', { text: o.closeNote })}</div>}
                  <OrderLines order={o} />
                  <button type="button" className="tab-btn tab-btn--ghost" onClick={() => usePrint.getState().print(o)} data-testid={`tablet-history-print-${o.orderNo}`}>
                    {t('tablet.print')}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {hasMore && (
        <button type="button" className="tab-btn tab-btn--ghost tab-history__load" onClick={() => void load(asked, page + 1)} data-testid="tablet-history-more">
          {t('tablet.history.more')}
        </button>
      )}
    </Modal>
  );
}
