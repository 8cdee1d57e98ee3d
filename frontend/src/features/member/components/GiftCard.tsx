import { useState } from 'react';
import { CheckIcon } from '@/components/Icons';
import { showToast } from '@/components/Toast';
import { useLang, useT } from '@/lib/i18n';
import { claimGift } from '../api/members';
import type { MemberGift } from '@/lib/api/types';
import { formatDay } from '../dates';
import { GiftIcon } from './icons';

const ERROR_TOAST_MS = 3000;

export interface GiftCardProps {
  gift: MemberGift;
  /** After a claim (the gift as the server answers it). */
  onClaimed: (gift: MemberGift) => void;
}

/** One gift: its options to choose from while available, the choice once claimed, or expired. */
export function GiftCard({ gift, onClaimed }: GiftCardProps) {
  const t = useT();
  const lang = useLang();
  const [choice, setChoice] = useState<string | null>(gift.options.length === 1 ? (gift.options[0]?.optionId ?? null) : null);
  const [busy, setBusy] = useState(false);
  const open = gift.status === 'available';
  const chosen = gift.chosenOptionId;

  const claim = async () => {
    if (busy) return;
    if (!choice) {
      showToast(t('member.gift.pickFirst'), ERROR_TOAST_MS);
      return;
    }
    setBusy(true);
    try {
      const done = await claimGift(gift.giftId, choice);
      const option = done.options.find((o) => o.optionId === (done.chosenOptionId ?? choice));
      showToast(
        option?.type === 'points'
          ? t('member.gift.pointsDone', { n: option.points ?? 0 })
          : option?.type === 'coupon'
            ? t('member.gift.couponDone')
            : t('member.gift.productDone'),
        ERROR_TOAST_MS,
      );
      onClaimed(done);
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), ERROR_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`mgift mgift--${gift.status}`} data-testid={`gift-${gift.giftId}`} data-status={gift.status}>
      <header className="mgift__head">
        <GiftIcon className="mgift__icon" />
        <strong>{gift.kind === 'welcome' ? t('member.gift.welcome') : t('member.gift.upgrade', { n: gift.level })}</strong>
        <span className="mgift__state">
          {gift.status === 'claimed'
            ? t('member.gift.claimed')
            : gift.status === 'expired'
              ? t('member.gift.expired')
              : t('member.gift.expires', { date: formatDay(gift.expiresAt, lang) })}
        </span>
      </header>
      {open && <p className="mgift__hint">{t('member.gift.choose')}</p>}
      <div className="mgift__opts" role={open ? 'radiogroup' : undefined} aria-label={t('member.gift.choose')}>
        {gift.options.map((o) => {
          const on = open ? choice === o.optionId : chosen === o.optionId;
          return (
            <button
              key={o.optionId}
              type="button"
              role={open ? 'radio' : undefined}
              aria-checked={open ? on : undefined}
              className={`mgift__opt${on ? ' mgift__opt--on' : ''}`}
              disabled={!open}
              onClick={() => setChoice(o.optionId)}
              data-testid={`gift-option-${o.optionId}`}
              data-type={o.type}
            >
              <strong className="mgift__name">{o.name}</strong>
              <small>
                {o.type === 'points'
                  ? t('member.gift.points', { n: o.points ?? 0 })
                  : o.type === 'coupon'
                    ? t('member.gift.coupon')
                    : t('member.gift.product')}
              </small>
              {on && <CheckIcon className="mgift__check" />}
            </button>
          );
        })}
      </div>
      {open && (
        <button type="button" className="btn btn--primary btn--block" onClick={() => void claim()} disabled={busy} data-testid={`gift-claim-${gift.giftId}`}>
          {t('member.gift.claim')}
        </button>
      )}
    </section>
  );
}
