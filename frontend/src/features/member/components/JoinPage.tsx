import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Header } from '@/components/Header';
import { CheckIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import { getAgreement, getGifts, joinClub } from '../api/members';
import { CoinIcon, CrownIcon, GiftIcon } from './icons';
import { useMember } from './useMember';
import { usePageTitle } from './usePageTitle';
import './Member.css';

const ERROR_TOAST_MS = 3000;

export interface JoinPageProps {
  who: string | number;
  /** After joining: the app re-reads the user (GET /me) so /my shows the badge. */
  onJoined?: () => void;
}

/**
 * /addMember: what membership gives, the member agreement shown in full, accepted by a tick, and
 * joining with its version (POST /members/join). A member lands here too: they are told and sent on.
 */
export function JoinPage({ who, onJoined }: JoinPageProps) {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const member = useMember(who);
  usePageTitle(t('member.join.title'));
  const agreement = useQuery(`member-agreement:${lang}`, (signal) => getAgreement(signal));
  const [accepted, setAccepted] = useState(false);
  const [showError, setShowError] = useState(false);
  const [joining, setJoining] = useState(false);

  const join = async () => {
    if (joining || !agreement.data) return;
    if (!accepted) {
      setShowError(true);
      return;
    }
    setJoining(true);
    try {
      await joinClub(agreement.data.version);
      onJoined?.();
      showToast(t('member.join.done'), 2000);
      // A welcome gift waits: choose it now; otherwise the member centre.
      const gifts = await getGifts().catch(() => []);
      const welcome = gifts.some((g) => g.kind === 'welcome' && g.status === 'available');
      void navigate(welcome ? '/my/member/memberSelectGift' : '/my/member/index', { replace: true });
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), ERROR_TOAST_MS);
      // A new agreement version: read it again.
      agreement.reload();
    } finally {
      setJoining(false);
    }
  };

  const already = member.data?.isLoyalty === true;
  return (
    <div className="mpage mjoin">
      <Header title={t('member.join.title')} fallback="/my" variant="brand" />
      <section className="mjoin__hero">
        <h2 className="mjoin__heading">{t('member.join.heading')}</h2>
        <ul className="mjoin__perks">
          <li>
            <CoinIcon /> {t('member.join.perk.points')}
          </li>
          <li>
            <GiftIcon /> {t('member.join.perk.gift')}
          </li>
          <li>
            <CrownIcon /> {t('member.join.perk.levels')}
          </li>
        </ul>
      </section>
      {already ? (
        <section className="mpage__card mjoin__already" data-testid="member-already">
          <p>{t('member.join.already')}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={() => void navigate('/my/member/index', { replace: true })} data-testid="member-to-center">
            {t('member.join.toCenter')}
          </button>
        </section>
      ) : !agreement.data ? (
        <Loading error={agreement.error?.message} reloadText={t('common.retry')} onReload={agreement.reload} />
      ) : (
        <section className="mpage__card mjoin__agreement" data-testid="member-agreement" data-version={agreement.data.version}>
          <h3 className="mjoin__title">
            {agreement.data.title}
            <small>{t('member.join.version', { v: agreement.data.version })}</small>
          </h3>
          <div className="mjoin__text" tabIndex={0} data-testid="member-agreement-text">
            {agreement.data.content.split(/\n+/).map((para, i) => (
              <p key={i}>{para}</p>
            ))}
          </div>
          <label className="mjoin__accept">
            <input
              type="checkbox"
              className="mjoin__input"
              checked={accepted}
              onChange={(e) => {
                setAccepted(e.target.checked);
                if (e.target.checked) setShowError(false);
              }}
              data-testid="member-accept"
            />
            <span className={`mjoin__box${accepted ? ' mjoin__box--on' : ''}`} aria-hidden="true">
              {accepted && <CheckIcon />}
            </span>
            <span>{t('member.join.accept', { title: agreement.data.title })}</span>
          </label>
          {showError && (
            <p className="mjoin__error" role="alert" data-testid="member-accept-error">
              {t('member.join.mustAccept')}
            </p>
          )}
          <button
            type="button"
            className="btn btn--primary btn--block mjoin__go"
            onClick={() => void join()}
            disabled={joining}
            data-testid="member-join"
          >
            {joining ? t('member.join.joining') : t('member.join.submit')}
          </button>
        </section>
      )}
    </div>
  );
}
