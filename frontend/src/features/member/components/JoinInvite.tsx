import { useNavigate } from 'react-router';
import { useT } from '@/lib/i18n';
import { GiftIcon } from './icons';
import './Member.css';

/** What a logged-in non-member sees wherever points would show: the way to join. */
export function JoinInvite({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <section className={`mjoin-invite${compact ? ' mjoin-invite--compact' : ''}`} data-testid="member-invite">
      <GiftIcon className="mjoin-invite__icon" />
      <div className="mjoin-invite__text">
        <strong>{t('member.invite.title')}</strong>
        <span>{t(compact ? 'member.invite.compact' : 'member.invite.text')}</span>
      </div>
      <button type="button" className="btn btn--primary btn--sm" onClick={() => void navigate('/addMember')} data-testid="member-invite-join">
        {t('member.invite.join')}
      </button>
    </section>
  );
}
