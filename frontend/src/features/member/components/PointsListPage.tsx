import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Empty } from '@/components/Empty';
import { Loading } from '@/components/Loading';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatDateTime } from '@/utils/time';
import { LEDGER_FILTERS, getLedger, type LedgerFilter } from '../api/members';
import type { LedgerEntry, MemberDetail } from '@/lib/api/types';
import { formatDay } from '../dates';
import { entryText, entryTone, signedPoints } from '../points';
import { MemberShell } from './MemberShell';

export function isLedgerFilter(v: string | null): v is LedgerFilter {
  return (LEDGER_FILTERS as readonly string[]).includes(v ?? '');
}

export interface PointsListPageProps {
  who: string | number;
  /** The filter from the address (?kind=); all by default. */
  initialKind?: LedgerFilter;
}

/** /my/integral/list: the balance, then the ledger by filter (all, earned, pending, spent, expired), 20 a page. */
export function PointsListPage({ who, initialKind = 'all' }: PointsListPageProps) {
  const t = useT();
  return (
    <MemberShell title={t('points.list.title')} who={who}>
      {(m) => <PointsView member={m} initialKind={initialKind} />}
    </MemberShell>
  );
}

interface ListState {
  key: string;
  items: LedgerEntry[];
  page: number;
  total: number;
  loading: boolean;
  error: string | null;
}

function PointsView({ member, initialKind }: { member: MemberDetail; initialKind: LedgerFilter }) {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const [kind, setKind] = useState<LedgerFilter>(initialKind);
  const key = `${kind}:${lang}`;
  const [state, setState] = useState<ListState>({ key, items: [], page: 0, total: 0, loading: true, error: null });
  const [nonce, setNonce] = useState(0);
  const wanted = useRef(1);

  useEffect(() => {
    const controller = new AbortController();
    const page = wanted.current;
    setState((s) => (s.key === key ? { ...s, loading: true, error: null } : { key, items: [], page: 0, total: 0, loading: true, error: null }));
    getLedger(kind, page, controller.signal).then(
      (res) =>
        setState((s) => {
          const before = s.key === key && page > 1 ? s.items : [];
          const seen = new Set(before.map((e) => e.id));
          return { key, items: [...before, ...res.items.filter((e) => !seen.has(e.id))], page: res.page, total: res.total, loading: false, error: null };
        }),
      (e: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, key, loading: false, error: e instanceof Error ? e.message : String(e) }));
      },
    );
    return () => controller.abort();
  }, [key, kind, nonce]);

  const choose = (k: LedgerFilter) => {
    if (k === kind) return;
    wanted.current = 1;
    setKind(k);
    void navigate(k === 'all' ? '/my/integral/list' : `/my/integral/list?kind=${k}`, { replace: true });
  };
  const more = () => {
    wanted.current = state.page + 1;
    setNonce((n) => n + 1);
  };
  const retry = () => setNonce((n) => n + 1);

  const current = state.key === key;
  const items = current ? state.items : [];
  const hasMore = current && items.length < state.total;
  return (
    <div className="mpage__body mpoints">
      <section className="mpoints__sum" data-testid="points-summary">
        <div>
          <strong data-testid="points-available">{member.points.available}</strong>
          <small>{t('member.points.available')}</small>
        </div>
        <div>
          <strong data-testid="points-pending">{member.points.pending}</strong>
          <small>{t('member.points.pending')}</small>
        </div>
        <button type="button" className="mpoints__guide" onClick={() => void navigate('/memberPointdeduction')} data-testid="points-guide">
          {t('points.toggle.guide')}
        </button>
      </section>
      {member.points.expiringSoon > 0 && member.points.expiringSoonAt !== null && (
        <p className="mpoints__expiring">{t('member.points.expiring', { n: member.points.expiringSoon, date: formatDay(member.points.expiringSoonAt, lang) })}</p>
      )}
      <div className="seg mpoints__tabs" role="tablist" aria-label={t('points.list.title')}>
        {LEDGER_FILTERS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === kind}
            className={`seg__btn${k === kind ? ' seg__btn--on' : ''}`}
            onClick={() => choose(k)}
            data-testid={`points-tab-${k}`}
          >
            {t(`points.filter.${k}` as MessageKey)}
          </button>
        ))}
      </div>
      {items.length === 0 && (state.loading || !current) ? (
        <Loading />
      ) : items.length === 0 && state.error ? (
        <Loading error={state.error} reloadText={t('common.retry')} onReload={retry} />
      ) : items.length === 0 ? (
        <Empty text={t('points.empty')} />
      ) : (
        <>
          <ul className="mledger" data-testid="points-list" data-total={state.total}>
            {items.map((e) => (
              <EntryRow key={e.id} entry={e} />
            ))}
          </ul>
          {hasMore ? (
            <button type="button" className="btn btn--ghost btn--block" onClick={more} disabled={state.loading} data-testid="points-more">
              {state.loading ? t('common.loading') : t('points.more')}
            </button>
          ) : (
            <p className="mledger__end">{t('points.end')}</p>
          )}
          {state.error && <p className="mledger__error" role="alert">{state.error}</p>}
        </>
      )}
    </div>
  );
}

function EntryRow({ entry }: { entry: LedgerEntry }) {
  const t = useT();
  const lang = useLang();
  const tone = entryTone(entry);
  return (
    <li className="mledger__row" data-testid={`points-entry-${entry.id}`} data-kind={entry.kind}>
      <span className="mledger__main">
        <span className="mledger__what">{entryText(entry, t)}</span>
        <small className="mledger__when">
          {formatDateTime(entry.at)}
          {entry.expiresAt !== null && entry.kind === 'earned' && (
            <span className="mledger__exp">{t('points.expiresAt', { date: formatDay(entry.expiresAt, lang) })}</span>
          )}
        </small>
      </span>
      <strong className={`mledger__pts mledger__pts--${tone}`} data-testid={`points-entry-${entry.id}-points`}>
        {signedPoints(entry.points)}
      </strong>
    </li>
  );
}
