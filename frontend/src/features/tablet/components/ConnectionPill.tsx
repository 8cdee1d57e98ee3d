import { useT, type MessageKey } from '@/lib/i18n';
import { reconnectSocket, useSocketStatus } from '@/lib/socket';

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
  return (
    <div className={`tab-conn tab-conn--${status}`} data-testid="tablet-connection" data-status={status} role="status" aria-live="polite">
      <span className="tab-conn__dot" aria-hidden="true" />
      {t(LABEL[status] ?? 'tablet.conn.idle')}
      {status === 'offline' && reason === 'refused' && (
        <button type="button" className="tab-conn__retry" onClick={() => reconnectSocket('/store')}>
          {t('tablet.conn.retry')}
        </button>
      )}
    </div>
  );
}
