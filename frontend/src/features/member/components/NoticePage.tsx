import { Loading } from '@/components/Loading';
import { useT, type MessageKey } from '@/lib/i18n';
import type { MemberDetail } from '@/lib/api/types';
import { MemberShell } from './MemberShell';
import { levelThresholdText } from './PrivilegePage';
import { useLevels } from './useLevels';

const RULES: MessageKey[] = ['member.notice.rule1', 'member.notice.rule2', 'member.notice.rule3', 'member.notice.rule4', 'member.notice.rule5'];

/** /my/member/notice: the rights overview — every level side by side, and the programme's rules. */
export function NoticePage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.notice.title')} who={who}>
      {(m) => <NoticeView member={m} />}
    </MemberShell>
  );
}

function NoticeView({ member }: { member: MemberDetail }) {
  const t = useT();
  const levels = useLevels();
  if (!levels.data) return <Loading page error={levels.error?.message} reloadText={t('common.retry')} onReload={levels.reload} />;
  return (
    <div className="mpage__body">
      <section className="mpage__card">
        <table className="mtable" data-testid="notice-levels">
          <thead>
            <tr>
              <th scope="col">{t('member.notice.level')}</th>
              <th scope="col">{t('member.notice.reach')}</th>
              <th scope="col">{t('member.notice.earn')}</th>
              <th scope="col">{t('member.notice.privileges')}</th>
            </tr>
          </thead>
          <tbody>
            {levels.data.map((l) => (
              <tr key={l.level} className={l.level === member.loyaltyLevel ? 'mtable__mine' : undefined}>
                <th scope="row">
                  Lv{l.level}
                  <small>{l.name}</small>
                </th>
                <td>{levelThresholdText(l, t)}</td>
                <td>{t('member.notice.earnN', { n: l.pointsPerYuan })}</td>
                <td>{l.privileges.map((p) => p.name).join(t('member.notice.sep'))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="mpage__card">
        <h2 className="mpage__cardTitle">{t('member.notice.rules')}</h2>
        <ol className="mrules">
          {RULES.map((k) => (
            <li key={k}>{t(k)}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}
