import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT, type MessageKey } from '@/lib/i18n';
import { formatFen } from '@/lib/money';
import { getGifts } from '../api/members';
import type { MemberDetail } from '@/lib/api/types';
import { levelProgress } from '../points';
import { formatDay } from '../dates';
import { CartGoIcon, CoinIcon, CrownIcon, GiftIcon, ListIcon, RocketIcon, ShieldIcon, StarIcon } from './icons';
import { MemberShell } from './MemberShell';

interface IconEntry {
  key: string;
  label: MessageKey;
  to: string;
  icon: ReactNode;
  /** A dot: something waits there (an unclaimed gift). */
  dot?: boolean;
}

/** /my/member/index: level, points, the way to the next level, the entries (4 a row), the blocks. */
export function MemberCenterPage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.center.title')} who={who} fallback="/my" variant="brand">
      {(m) => <CenterView member={m} />}
    </MemberShell>
  );
}

function CenterView({ member }: { member: MemberDetail }) {
  const t = useT();
  const lang = useLang();
  const navigate = useNavigate();
  const gifts = useQuery(`member-gifts:${lang}`, (signal) => getGifts(signal));
  const waiting = (kind: 'welcome' | 'upgrade') => (gifts.data ?? []).some((g) => g.kind === kind && g.status === 'available');
  const progress = levelProgress(member);
  const entries: IconEntry[] = [
    { key: 'points', label: 'member.entry.points', to: '/my/integral/list', icon: <ListIcon /> },
    { key: 'privilege', label: 'member.entry.privilege', to: '/my/member/privilege', icon: <CrownIcon /> },
    { key: 'benefits', label: 'member.entry.benefits', to: '/my/member/benefits', icon: <StarIcon /> },
    { key: 'notice', label: 'member.entry.notice', to: '/my/member/notice', icon: <ShieldIcon /> },
    { key: 'gift', label: 'member.entry.gift', to: '/my/member/memberSelectGift', icon: <GiftIcon />, dot: waiting('welcome') },
    { key: 'upgrade', label: 'member.entry.upgrade', to: '/my/member/promotionCeremony', icon: <RocketIcon />, dot: waiting('upgrade') },
    { key: 'deduction', label: 'member.entry.deduction', to: '/memberPointdeduction', icon: <CoinIcon /> },
    { key: 'order', label: 'member.entry.order', to: '/menu', icon: <CartGoIcon /> },
  ];
  return (
    <div className="mpage__body mcenter">
      <section className="mcard" data-testid="member-card" data-level={member.loyaltyLevel ?? ''}>
        <div className="mcard__top">
          <span className="mcard__level" data-testid="member-level">
            <CrownIcon /> {member.levelName ?? t('my.memberNoLevel')}
          </span>
          {member.loyaltyLevel !== null && <span className="mcard__lv">Lv{member.loyaltyLevel}</span>}
        </div>
        <div className="mcard__points">
          <button type="button" className="mcard__pt" onClick={() => void navigate('/my/integral/list')} data-testid="member-points">
            <strong data-testid="member-points-available">{member.points.available}</strong>
            <small>{t('member.points.available')}</small>
          </button>
          <button type="button" className="mcard__pt" onClick={() => void navigate('/my/integral/list?kind=pending')}>
            <strong data-testid="member-points-pending">{member.points.pending}</strong>
            <small>{t('member.points.pending')}</small>
          </button>
        </div>
        {member.points.expiringSoon > 0 && member.points.expiringSoonAt !== null && (
          <p className="mcard__expiring" data-testid="member-expiring">
            {t('member.points.expiring', { n: member.points.expiringSoon, date: formatDay(member.points.expiringSoonAt, lang) })}
          </p>
        )}
        <div className="mcard__progress" data-testid="member-progress">
          {progress && member.nextLevel ? (
            <>
              <div className="mbar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.percent}>
                <span className="mbar__fill" style={{ width: `${progress.percent}%` }} />
              </div>
              <p className="mcard__next">
                {t('member.next', { amount: formatFen(progress.remainingFen), name: member.nextLevel.name })}
              </p>
            </>
          ) : (
            <p className="mcard__next">{t('member.top')}</p>
          )}
          <p className="mcard__spend">{t('member.spend', { amount: formatFen(Math.round(member.qualifyingSpend * 100)) })}</p>
        </div>
      </section>

      <ul className="micons" data-testid="member-icons">
        {entries.map((e) => (
          <li key={e.key}>
            <button type="button" className="micons__btn" onClick={() => void navigate(e.to)} data-testid={`member-entry-${e.key}`}>
              <span className="micons__icon">
                {e.icon}
                {e.dot && <i className="micons__dot" aria-label={t('member.gift.waiting')} />}
              </span>
              <span className="micons__label">{t(e.label)}</span>
            </button>
          </li>
        ))}
      </ul>

      <MyPrivileges member={member} onCoupons={() => void navigate('/my/coupon/list')} />

      <section className="mblocks" aria-label={t('member.block.title')}>
        <h2 className="mblocks__title">{t('member.block.title')}</h2>
        <div className="mblock mblock--red">
          <strong>{t('member.block.earnTitle')}</strong>
          <span>{t('member.block.earn')}</span>
        </div>
        <div className="mblock mblock--blue">
          <strong>{t('member.block.payTitle')}</strong>
          <span>{t('member.block.pay')}</span>
        </div>
        <div className="mblock mblock--cream">
          <strong>{t('member.block.giftTitle')}</strong>
          <span>{t('member.block.gift')}</span>
        </div>
      </section>
    </div>
  );
}

/** What the coupons of a privilege are for: the member centre links them to the coupon list. */
const COUPON_PRIVILEGES = new Set(['birthday', 'delivery']);
const PRIVILEGE_ICONS: Record<string, ReactNode> = {
  points: <CoinIcon />,
  birthday: <GiftIcon />,
  delivery: <CartGoIcon />,
  priority: <RocketIcon />,
};

/**
 * The member's own level's privileges, each with what it does and what this member has of it now
 * (the server's words: the coupons it issued this period, priority at checkout).
 */
function MyPrivileges({ member, onCoupons }: { member: MemberDetail; onCoupons: () => void }) {
  const t = useT();
  if (member.privileges.length === 0) return null;
  const hasCoupons = member.privileges.some((p) => COUPON_PRIVILEGES.has(p.code));
  return (
    <section className="mpage__card mmine" data-testid="member-privileges" aria-labelledby="member-privileges-title">
      <h2 id="member-privileges-title" className="mpage__cardTitle">
        <CrownIcon /> {t('member.mine.title')}
      </h2>
      <ul className="mprivs">
        {member.privileges.map((p) => (
          <li key={p.code} className="mprivs__item" data-testid={`member-privilege-${p.code}`}>
            <span className="mprivs__icon">{PRIVILEGE_ICONS[p.code] ?? <StarIcon />}</span>
            <span className="mprivs__text">
              <strong>{p.name}</strong>
              <small>{p.description}</small>
              {p.status && (
                <span className="mprivs__status" data-testid={`member-privilege-status-${p.code}`}>
                  {p.status}
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
      {hasCoupons && (
        <button type="button" className="btn btn--ghost btn--block mmine__coupons" onClick={onCoupons} data-testid="member-privileges-coupons">
          {t('member.mine.coupons')}
        </button>
      )}
    </section>
  );
}
