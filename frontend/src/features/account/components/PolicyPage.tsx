import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import { formatDateTime } from '@/utils/time';
import { getProtocol } from '../api/account';
import './Account.css';

/**
 * /system/privacyProtocol and /system/userProtocol: the texts the server keeps (GET
 * /system/protocol, in the app's language) with their version and update time. Content is
 * required before display (spec account §5): loading, else the error with a retry.
 */
export function PolicyPage({ kind }: { kind: 'privacy' | 'user' }) {
  const t = useT();
  const lang = useLang();
  const code = kind === 'privacy' ? 'privacyprotocol' : 'useragreement';
  const q = useQuery(`protocol:${code}:${lang}`, (signal) => getProtocol(code, signal));
  const doc = q.data;
  return (
    <div className="my">
      <Header title={doc?.title ?? t(kind === 'privacy' ? 'privacy.title' : 'agreement.title')} />
      {!doc ? (
        <Loading page text={t('agreement.loading')} error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />
      ) : (
        <article className="policy" data-testid="policy" data-version={doc.version}>
          <p className="policy__meta" data-testid="policy-version">
            {t('agreement.version', { version: doc.version, time: formatDateTime(doc.updateTime) })}
          </p>
          {doc.content.split('\n').map((line, i) => {
            const text = line.trim();
            if (!text) return null;
            if (text.startsWith('## ')) return <h2 key={i}>{text.slice(3)}</h2>;
            return <p key={i}>{text}</p>;
          })}
        </article>
      )}
    </div>
  );
}
