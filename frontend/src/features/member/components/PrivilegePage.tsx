import { useState } from 'react';
import { Loading } from '@/components/Loading';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { MemberDetail, MemberLevel } from '@/lib/api/types';
import { MemberShell } from './MemberShell';
import { useLevels } from './useLevels';
import { CrownIcon, StarIcon } from './icons';

/** /my/member/privilege: every level, what reaches it, and its privileges; the member's own first. */
export function PrivilegePage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.privilege.title')} who={who}>
      {(m) => <PrivilegeView member={m} />}
    </MemberShell>
  );
}

export function levelThresholdText(level: MemberLevel, t: ReturnType<typeof useT>): string {
  return level.threshold <= 0 ? t('member.privilege.onJoin') : t('member.privilege.threshold', { amount: formatFen(toFen(level.threshold)) });
}

function PrivilegeView({ member }: { member: MemberDetail }) {
  const t = useT();
  const levels = useLevels();
  const [picked, setPicked] = useState<number | null>(null);
  if (!levels.data) return <Loading page error={levels.error?.message} reloadText={t('common.retry')} onReload={levels.reload} />;
  const current = member.loyaltyLevel ?? levels.data[0]?.level ?? 1;
  const shown = levels.data.find((l) => l.level === (picked ?? current)) ?? levels.data[0];
  return (
    <div className="mpage__body">
      <div className="mlevels" role="tablist" aria-label={t('member.privilege.title')}>
        {levels.data.map((l) => (
          <button
            key={l.level}
            type="button"
            role="tab"
            aria-selected={l.level === shown?.level}
            className={`mlevels__tab${l.level === shown?.level ? ' mlevels__tab--on' : ''}`}
            onClick={() => setPicked(l.level)}
            data-testid={`level-tab-${l.level}`}
          >
            <span className="mlevels__lv">Lv{l.level}</span>
            <span className="mlevels__name">{l.name}</span>
            {l.level === current && <small className="mlevels__mine">{t('member.privilege.current')}</small>}
          </button>
        ))}
      </div>
      {shown && (
        <section className="mpage__card" data-testid={`level-${shown.level}`}>
          <h2 className="mpage__cardTitle">
            <CrownIcon /> {shown.name}
          </h2>
          <p className="mpage__muted">{levelThresholdText(shown, t)}</p>
          <p className="mpage__muted">{t('member.privilege.earn', { n: shown.pointsPerYuan })}</p>
          {shown.privileges.length === 0 ? (
            <p className="mpage__muted">{t('member.privilege.none')}</p>
          ) : (
            <ul className="mprivs">
              {shown.privileges.map((p) => (
                <li key={p.code} className="mprivs__item" data-testid={`privilege-${p.code}`}>
                  <span className="mprivs__icon">
                    <StarIcon />
                  </span>
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
    </div>
  );
}
