import { useT } from '@/lib/i18n';
import { reconnectSocket, useSocketStatus, type Namespace } from '@/lib/socket';
import './ConnectionBadge.css';

export interface ConnectionBadgeProps {
  namespace?: Namespace;
}

/**
 * The live-connection state of a namespace, for the user: nothing while connected (or while no
 * feature has opened the socket), "重新连接中…" while the client retries, the spec's offline text
 * when the browser is offline, and a retry button when the server stopped the connection.
 * It only reads the status store: it never opens a socket itself.
 */
export function ConnectionBadge({ namespace = '/' }: ConnectionBadgeProps) {
  const t = useT();
  const { status, reason } = useSocketStatus(namespace);
  if (status === 'reconnecting') {
    return (
      <div className="conn-badge conn-badge--reconnecting" role="status" aria-live="polite" data-testid="connection-badge">
        <span className="conn-badge__dot" aria-hidden="true" />
        {t('conn.reconnecting')}
      </div>
    );
  }
  if (status === 'offline' && reason === 'refused') {
    return (
      <div className="conn-badge conn-badge--stopped" role="status" aria-live="polite" data-testid="connection-badge">
        {t('conn.stopped')}
        <button type="button" className="conn-badge__retry" onClick={() => reconnectSocket(namespace)}>
          {t('conn.retry')}
        </button>
      </div>
    );
  }
  if (status === 'offline') {
    return (
      <div className="conn-badge conn-badge--offline" role="alert" data-testid="connection-badge">
        {t('conn.offline')}
      </div>
    );
  }
  return null;
}
