import { useNavigate } from 'react-router';
import { Loading } from '@/components/Loading';
import { useT } from '@/lib/i18n';
import type { MemberDetail } from '@/lib/api/types';
import { MemberShell } from './MemberShell';
import { useLevels } from './useLevels';
import { CoinIcon, CrownIcon, GiftIcon, StarIcon } from './icons';

const ICONS = [StarIcon, GiftIcon, CoinIcon, CrownIcon];

/**
 * /my/member/benefits and /my/member/memberIconBenefit: the member's own level's privileges as
 * icons (4 a row), each with its description, and what the next level adds.
 */
export function BenefitsPage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.benefits.title')} who={who}>
      {(m) => <BenefitsView member={m} />}
    </MemberShell>
  );
}

function BenefitsView({ member }: { member: MemberDetail }) {
  const t = useT();
  const navigate = useNavigate();
  const levels = useLevels();
  if (!levels.data) return <Loading page error={levels.error?.message} reloadText={t('common.retry')} onReload={levels.reload} />;
  const mine = levels.data.find((l) => l.level === member.loyaltyLevel) ?? levels.data[0];
  const next = member.nextLevel ? levels.data.find((l) => l.level === member.nextLevel?.level) : undefined;
  const mineCodes = new Set(mine?.privileges.map((p) => p.code));
  const extra = next ? next.privileges.filter((p) => !mineCodes.has(p.code)) : [];
  return (
    <div className="mpage__body">
      <section className="mpage__card" data-testid="benefits-mine">
        <h2 className="mpage__cardTitle">{t('member.benefits.intro', { name: mine?.name ?? '' })}</h2>
        <ul className="micons micons--plain">
          {(mine?.privileges ?? []).map((p, i) => {
            const Icon = ICONS[i % ICONS.length] ?? StarIcon;
            return (
              <li key={p.code} data-testid={`benefit-${p.code}`}>
                <div className="micons__btn">
                  <span className="micons__icon">
                    <Icon />
                  </span>
                  <span className="micons__label">{p.name}</span>
                </div>
              </li>
            );
          })}
        </ul>
        <ul className="mprivs">
          {(mine?.privileges ?? []).map((p) => (
            <li key={p.code} className="mprivs__item">
              <span className="mprivs__text">
                <strong>{p.name}</strong>
                <small>{p.description}</small>
              </span>
            </li>
          ))}
        </ul>
      </section>
      {next && (
        <section className="mpage__card" data-testid="benefits-next">
          <h2 className="mpage__cardTitle">{t('member.benefits.next', { name: next.name })}</h2>
          {extra.length === 0 ? (
            <p className="mpage__muted">{t('member.benefits.moreEarn', { n: next.pointsPerYuan })}</p>
          ) : (
            <ul className="mprivs">
              {extra.map((p) => (
                <li key={p.code} className="mprivs__item">
                  <span className="mprivs__text">
                    <strong>{p.name}</strong>
                    <small>{p.description}</small>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <button type="button" className="btn btn--ghost btn--block" onClick={() => void navigate('/my/member/privilege')} data-testid="benefits-all">
        {t('member.benefits.all')}
      </button>
    </div>
  );
}
