import { useT, type MessageKey } from '@/lib/i18n';
import { reconnectSocket, useSocketStatus } from '@/lib/socket';
import { useBoard } from '../store/board';

const LABEL: Record<string, MessageKey> = {
  idle: 'tablet.conn.idle',
  connecting: 'tablet.conn.connecting',
  connected: 'tablet.conn.connected',
  reconnecting: 'tablet.conn.reconnecting',
  offline: 'tablet.conn.offline',
};

/**
 * Always visible (unlike the customer's badge, which hides when all is well): the crew should
 * see at a glance that new orders will arrive.
 */
export function ConnectionPill() {
  const t = useT();
  const { status, reason } = useSocketStatus('/store');
  // Other tablets of the store count too: the crew knows whether this one is the only eye.
  const online = useBoard((s) => s.store?.tabletsOnline ?? null);
  return (
    <div className={`tab-conn tab-conn--${status}`} data-testid="tablet-connection" data-status={status} role="status" aria-live="polite">
      <span className="tab-conn__dot" aria-hidden="true" />
      {t(LABEL[status] ?? 'tablet.conn.idle')}
      {status === 'connected' && online !== null && online > 0 && (
        <span className="tab-conn__count" data-testid="tablet-online-count" data-count={online}>
          {t(online === 1 ? 'tablet.conn.online.one' : 'tablet.conn.online.other', { n: online })}
        </span>
      )}
      {status === 'offline' && reason === 'refused' && (
        <button type="button" className="tab-conn__retry" onClick={() => reconnectSocket('/store')}>
          {t('tablet.conn.retry')}
        </button>
      )}
    </div>
  );
}
