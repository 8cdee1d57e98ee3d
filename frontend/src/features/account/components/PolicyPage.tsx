import { Header } from '@/components/Header';
import { useT } from '@/lib/i18n';
import './Account.css';

/** /system/privacyProtocol and /system/userProtocol: simple static texts for now. */
export function PolicyPage({ kind }: { kind: 'privacy' | 'user' }) {
  const t = useT();
  const paragraphs = kind === 'privacy' ? (['privacy.p1', 'privacy.p2', 'privacy.p3'] as const) : (['agreement.p1', 'agreement.p2'] as const);
  return (
    <div className="my">
      <Header title={t(kind === 'privacy' ? 'privacy.title' : 'agreement.title')} />
      <article className="policy" data-testid="policy">
        {paragraphs.map((p, i) => (
          <p key={p}>
            {i + 1}. {t(p)}
          </p>
        ))}
      </article>
    </div>
  );
}
