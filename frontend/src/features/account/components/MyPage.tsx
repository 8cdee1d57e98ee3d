import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { Header } from '@/components/Header';
import { ChevronRightIcon, PinIcon, TicketIcon, UserIcon } from '@/components/Icons';
import { showToast } from '@/components/Toast';
import { showsCoupons } from '@/lib/channel';
import { useT } from '@/lib/i18n';
import { logoutCall } from '../api/account';
import { maskPhone } from '../validation';
import { useAccount } from '../store/session';
import { useMe } from './useMe';
import './Account.css';

export interface MyPageProps {
  /** What else a logout clears (store, address, cart data): composed by the app. */
  onSignedOut?: () => void;
  /** The member strip (level, points, the member centre) or the invitation to join: composed by the app. */
  memberSlot?: ReactNode;
}

/** /my: the personal centre. */
export function MyPage({ onSignedOut, memberSlot }: MyPageProps) {
  const t = useT();
  const navigate = useNavigate();
  const { user } = useMe();
  const signOut = useAccount((s) => s.signOut);
  const [confirm, setConfirm] = useState(false);

  const logout = async () => {
    setConfirm(false);
    try {
      await logoutCall();
    } catch {
      // The local logout stands whatever the server says.
    }
    signOut();
    onSignedOut?.();
    showToast(t('my.loggedOut'), 2000);
    void navigate('/', { replace: true });
  };

  const member = user?.isLoyalty ?? false;
  return (
    <div className="my">
      <Header title={t('my.title')} variant="brand" />
      <section className="my__card" data-testid="my-card">
        <span className="my__avatar" aria-hidden="true">
          <UserIcon />
        </span>
        <div className="my__who">
          <strong data-testid="my-name">{user?.name || t('my.noName')}</strong>
          <span className="my__phone" data-testid="my-phone">
            {maskPhone(user?.cellPhone)}
          </span>
          <span className={`badge ${member ? 'badge--blue' : 'badge--muted'}`} data-testid="my-member">
            {member ? (user?.loyaltyLevel ? t('my.member', { n: user.loyaltyLevel }) : t('my.memberNoLevel')) : t('my.notMember')}
          </span>
        </div>
        {/* With the member strip composed in, the points are there (with the pending ones). */}
        {!memberSlot && (
          <div className="my__points">
            <strong data-testid="my-points">{member ? (user?.userfulPoint ?? 0) : 0}</strong>
            <small>{t('my.points')}</small>
          </div>
        )}
      </section>
      {memberSlot ? <div className="my__member">{memberSlot}</div> : !member && <p className="my__join">{t('my.joinHint')}</p>}
      <ul className="entries">
        <Entry icon={<UserIcon />} label={t('my.personalInfo')} onClick={() => void navigate('/my/personalInfo')} testId="entry-info" />
        {showsCoupons() && <Entry icon={<TicketIcon />} label={t('nav.coupons')} onClick={() => void navigate('/my/coupon/list')} testId="entry-coupons" />}
        <Entry icon={<PinIcon />} label={t('my.addresses')} onClick={() => void navigate('/address')} testId="entry-address" />
        <Entry icon={<LockIcon />} label={t('my.changePassword')} onClick={() => void navigate('/my/personalInfo/updatePassword')} testId="entry-password" />
        <Entry icon={<CloseAccountIcon />} label={t('my.cancellation')} onClick={() => void navigate('/my/personalInfo/cancellation')} testId="entry-cancel" />
      </ul>
      <div className="my__foot">
        <button type="button" className="btn btn--ghost btn--block" onClick={() => setConfirm(true)} data-testid="logout">
          {t('my.logout')}
        </button>
      </div>
      <Dialog open={confirm} title={t('my.logout')} onConfirm={() => void logout()} onCancel={() => setConfirm(false)}>
        <p className="dlg__text">{t('my.logoutConfirm')}</p>
      </Dialog>
    </div>
  );
}

export function Entry({ icon, label, value, onClick, testId }: { icon?: ReactNode; label: string; value?: ReactNode; onClick?: () => void; testId?: string }) {
  return (
    <li>
      <button type="button" className="entry" onClick={onClick} data-testid={testId} disabled={!onClick}>
        {icon && <span className="entry__icon">{icon}</span>}
        <span className="entry__label">{label}</span>
        {value !== undefined && <span className="entry__value">{value}</span>}
        {onClick && <ChevronRightIcon className="entry__chev" />}
      </button>
    </li>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 018 0v3" />
    </svg>
  );
}

function CloseAccountIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <circle cx="10" cy="8" r="4" />
      <path d="M3 20c0-3.5 3-6 7-6 1.3 0 2.5.3 3.5.8M16 16l5 5M21 16l-5 5" />
    </svg>
  );
}
