import { useState, type FormEvent } from 'react';
import { isApiError, retryAfterSeconds } from '@/lib/api';
import { useT } from '@/lib/i18n';
import type { Coupon } from '@/lib/api/types';
import { exchangeCode } from '../api/coupons';

export interface ExchangeBoxProps {
  /** The coupon the code gave (the list reads it again). */
  onExchanged: (coupon: Coupon) => void;
}

/**
 * Exchange by code. Every refusal reads the same (the server's one text: no telling which codes
 * exist); too many tries say how long to wait.
 */
export function ExchangeBox({ onExchanged }: ExchangeBoxProps) {
  const t = useT();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (!value || busy) return;
    setBusy(true);
    setError(null);
    try {
      const coupon = await exchangeCode(value);
      setCode('');
      onExchanged(coupon);
    } catch (err) {
      const wait = isApiError(err) && err.status === 429 ? retryAfterSeconds(err) : null;
      setError(wait !== null ? t('coupon.exchange.wait', { n: wait }) : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="cpn-ex" onSubmit={(e) => void submit(e)} data-testid="coupon-exchange">
      <label className="cpn-ex__label" htmlFor="coupon-exchange-code">
        {t('coupon.exchange.title')}
      </label>
      <div className="cpn-ex__row">
        <input
          id="coupon-exchange-code"
          className="cpn-ex__input"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
          placeholder={t('coupon.exchange.placeholder')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          aria-invalid={error !== null}
          aria-describedby={error ? 'coupon-exchange-error' : undefined}
          data-testid="coupon-exchange-input"
        />
        <button type="submit" className="btn btn--primary cpn-ex__go" disabled={busy || code.trim() === ''} data-testid="coupon-exchange-submit">
          {t('coupon.exchange.submit')}
        </button>
      </div>
      {error && (
        <p className="cpn-ex__error" id="coupon-exchange-error" role="alert" data-testid="coupon-exchange-error">
          {error}
        </p>
      )}
    </form>
  );
}
