import { useNavigate } from 'react-router';
import { ChevronRightIcon } from '@/components/Icons';
import { useT } from '@/lib/i18n';
import { CrownIcon } from './icons';
import { JoinInvite } from './JoinInvite';
import { useMember } from './useMember';
import './Member.css';

/** /my's member strip: level and points with the way to the member centre, or the invitation to join. */
export function MemberSummary({ who }: { who: string | number }) {
  const t = useT();
  const navigate = useNavigate();
  const q = useMember(who);
  const m = q.data;
  if (!m) return null;
  if (!m.isLoyalty) return <JoinInvite />;
  return (
    <button type="button" className="msum" onClick={() => void navigate('/my/member/index')} data-testid="my-member-centre">
      <span className="msum__level" data-testid="my-member-level">
        <CrownIcon />
        {m.loyaltyLevel !== null && <span className="msum__lv">Lv{m.loyaltyLevel}</span>}
        {m.levelName ?? t('my.memberNoLevel')}
      </span>
      <span className="msum__pts">
        <strong data-testid="my-member-points">{m.points.available}</strong> {t('member.points.available')}
        {m.points.pending > 0 && <small>{t('member.points.pendingN', { n: m.points.pending })}</small>}
      </span>
      <span className="msum__go">
        {t('member.center.title')}
        <ChevronRightIcon />
      </span>
    </button>
  );
}
