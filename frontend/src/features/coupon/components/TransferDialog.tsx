import { useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { useT } from '@/lib/i18n';
import type { Coupon } from '@/lib/api/types';
import { transferCoupon } from '../api/coupons';

export interface TransferDialogProps {
  /** The coupon to give (null: closed). */
  coupon: Coupon | null;
  onClose: () => void;
  /** Given: the list reads again. */
  onTransferred: () => void;
}

const PHONE = /^1\d{10}$/;

/**
 * Give a coupon to another account by its phone number. The server refuses while an order holds
 * the coupon, to oneself and to a number without an account, in words shown here; once given,
 * the confirmation names the phone masked (the recipient's new code is theirs alone).
 */
export function TransferDialog({ coupon, onClose, onTransferred }: TransferDialogProps) {
  const t = useT();
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const close = () => {
    setPhone('');
    setError(null);
    setDone(null);
    onClose();
  };

  const give = async () => {
    if (!coupon || busy) return;
    const value = phone.replace(/\s+/g, '');
    if (!PHONE.test(value)) {
      setError(t('coupon.transfer.phoneInvalid'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await transferCoupon(coupon.couponCode, value);
      setDone(reply.to);
      onTransferred();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (done !== null) {
    return (
      <Dialog open={coupon !== null} title={t('coupon.transfer.title')} onConfirm={close} onClose={close} confirmText={t('common.ok')}>
        <p className="dlg__text" data-testid="coupon-transfer-done">
          {t('coupon.transfer.done', { phone: done })}
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={coupon !== null}
      title={t('coupon.transfer.title')}
      onConfirm={() => void give()}
      onCancel={close}
      confirmText={busy ? t('common.loading') : t('coupon.transfer.confirm')}
    >
      <div className="cpn-tr" data-testid="coupon-transfer">
        {coupon && (
          <p className="cpn-tr__what">
            <strong>{coupon.name}</strong> · {coupon.ruleText}
          </p>
        )}
        <p className="dlg__text">{t('coupon.transfer.hint')}</p>
        <label className="cpn-tr__label">
          <span>{t('coupon.transfer.phone')}</span>
          <input
            className="cpn-tr__input"
            type="tel"
            inputMode="numeric"
            maxLength={13}
            value={phone}
            onChange={(e) => {
              setPhone(e.target.value);
              setError(null);
            }}
            aria-invalid={error !== null}
            data-testid="coupon-transfer-phone"
          />
        </label>
        {error && (
          <p className="cpn-tr__error" role="alert" data-testid="coupon-transfer-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
