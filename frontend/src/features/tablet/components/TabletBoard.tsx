import { useCallback, useMemo, useState } from 'react';
import { useServerNow } from '@/lib/clock';
import { useI18n, useT } from '@/lib/i18n';
import { flashingOrders } from '../alarm';
import { logout } from '../api/tablet';
import { useAlarm, useSound } from '../hooks/useAlarm';
import { useOrderActions } from '../hooks/useOrderActions';
import { useTabletLive } from '../hooks/useTabletLive';
import { queueOrders } from '../queue';
import { COLUMNS, columnTitleKey, columnsOf } from '../stages';
import { useBoard } from '../store/board';
import { useTabletSession } from '../store/session';
import './Tablet.css';
import './Kitchen.css';
import type { TabletOrder } from '../types';
import { AlarmBar } from './AlarmBar';
import { CancelAlert } from './CancelAlert';
import { ConnectionPill } from './ConnectionPill';
import { HistoryPanel } from './HistoryPanel';
import { OrderCard } from './OrderCard';
import { OrderDetail } from './OrderDetail';
import { PrintSettingsDialog } from './PrintSettingsDialog';
import { RefuseDialog } from './RefuseDialog';
import { SoldOutPanel } from './SoldOutPanel';
import { StoreStatusBar } from './StoreStatusBar';
import { TicketPrinter } from './TicketPrinter';

/** /tablet: the store's live queue by stage, with the alarm, the store status and sold-out items. */
export function TabletBoard() {
  const t = useT();
  const session = useTabletSession((s) => s.session);
  useTabletLive(session?.token ?? null);
  const queue = useBoard((s) => s.queue);
  const loadError = useBoard((s) => s.loadError);
  const store = useBoard((s) => s.store);
  const undoMarks = useBoard((s) => s.undo);
  const nowMs = useServerNow(1000);
  const orders = useMemo(() => queueOrders(queue), [queue]);
  const columns = useMemo(() => columnsOf(orders), [orders]);
  const flashing = useMemo(() => flashingOrders(orders), [orders]);
  const alarm = useAlarm(orders);
  const sound = useSound();
  const actions = useOrderActions();

  // By orderNo, so an open dialog follows the live card (and closes when the order leaves).
  const [detailNo, setDetailNo] = useState<string | null>(null);
  const [refuseNo, setRefuseNo] = useState<string | null>(null);
  const [soldOutOpen, setSoldOutOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [printOpen, setPrintOpen] = useState(false);
  const detail = detailNo ? queue.orders[detailNo] : undefined;
  const refusing = refuseNo ? queue.orders[refuseNo] : undefined;

  const openDetail = useCallback((o: TabletOrder) => setDetailNo(o.orderNo), []);
  const openRefuse = useCallback((o: TabletOrder) => setRefuseNo(o.orderNo), []);
  const { accept, advance, undo } = actions;
  const onAccept = useCallback((o: TabletOrder) => void accept(o), [accept]);
  const onAdvance = useCallback((o: TabletOrder) => void advance(o), [advance]);
  const onUndo = useCallback((o: TabletOrder) => void undo(o), [undo]);

  const signOut = async () => {
    await logout();
    useTabletSession.getState().signOut();
  };
  const lang = useI18n((s) => s.lang);

  return (
    <div className="tab-board">
      <header className="tab-head">
        <div className="tab-head__store">
          <strong>{store?.storeName || session?.storeName}</strong>
          <span className="tab-muted">
            {session?.storeCode} · {t('tablet.staff', { name: session?.staffName ?? '' })}
          </span>
        </div>
        <StoreStatusBar />
        <div className="tab-head__right">
          <ConnectionPill />
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => setHistoryOpen(true)} data-testid="tablet-history-open">
            {t('tablet.history.open')}
          </button>
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => setPrintOpen(true)} data-testid="tablet-print-open">
            {t('tablet.print.settings')}
          </button>
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => setSoldOutOpen(true)} data-testid="tablet-soldout-open">
            {t('tablet.soldout.open')}
            {store && store.soldOut.length > 0 && <span className="tab-count">{store.soldOut.length}</span>}
          </button>
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => useI18n.getState().setLang(lang === 'zh' ? 'en' : 'zh')}>
            {t('lang.switchTo')}
          </button>
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => void signOut()} data-testid="tablet-logout">
            {t('tablet.logout')}
          </button>
        </div>
      </header>

      <AlarmBar ringing={alarm.ringing} rings={alarm.rings} waiting={flashing.size} sound={sound.state} onEnableSound={sound.enable} />
      {loadError && (
        <div className="tab-error" role="alert">
          {t('tablet.loadError', { msg: loadError })}
        </div>
      )}

      <main className="tab-cols">
        {COLUMNS.map((col) => (
          <section key={col} className={`tab-col tab-col--${col}`} data-testid={`tablet-column-${col}`} aria-label={t(columnTitleKey(col))}>
            <h2 className="tab-col__title">
              {t(columnTitleKey(col))}
              <span className="tab-count">{columns[col].length}</span>
            </h2>
            <div className="tab-col__list">
              {columns[col].length === 0 && <p className="tab-muted tab-col__empty">{t('tablet.empty')}</p>}
              {columns[col].map((o) => (
                <OrderCard
                  key={o.orderNo}
                  order={o}
                  nowMs={nowMs}
                  flashing={flashing.has(o.orderNo)}
                  undoMark={undoMarks[o.orderNo]}
                  busy={actions.busy.has(o.orderNo)}
                  onOpen={openDetail}
                  onAccept={onAccept}
                  onRefuse={openRefuse}
                  onAdvance={onAdvance}
                  onUndo={onUndo}
                />
              ))}
            </div>
          </section>
        ))}
      </main>

      {detail && <OrderDetail order={detail} nowMs={nowMs} onClose={() => setDetailNo(null)} />}
      {refusing && refusing.progress === 0 && (
        <RefuseDialog
          order={refusing}
          busy={actions.busy.has(refusing.orderNo)}
          onClose={() => setRefuseNo(null)}
          onConfirm={(reason) =>
            void actions.refuse(refusing, reason).then((ok) => {
              if (ok) setRefuseNo(null);
            })
          }
        />
      )}
      {soldOutOpen && <SoldOutPanel onClose={() => setSoldOutOpen(false)} />}
      {historyOpen && <HistoryPanel onClose={() => setHistoryOpen(false)} />}
      {printOpen && <PrintSettingsDialog onClose={() => setPrintOpen(false)} />}
      <CancelAlert />
      <TicketPrinter />
    </div>
  );
}
