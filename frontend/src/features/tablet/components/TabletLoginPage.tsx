import { useState, type FormEvent } from 'react';
import { useT } from '@/lib/i18n';
import { login } from '../api/tablet';
import { useTabletSession } from '../store/session';
import './Tablet.css';

/** /tablet/login: store code, staff code and PIN; a session already open goes on at once. */
export function TabletLoginPage({ onLoggedIn }: { onLoggedIn: () => void }) {
  const t = useT();
  const expired = useTabletSession((s) => s.expired);
  const [storeCode, setStoreCode] = useState('');
  const [staffCode, setStaffCode] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    const body = { storeCode: storeCode.trim().toUpperCase(), staffCode: staffCode.trim(), pin: pin.trim() };
    if (!body.storeCode || !body.staffCode || !body.pin) {
      setError(t('tablet.login.required'));
      return;
    }
    setSending(true);
    setError(null);
    try {
      useTabletSession.getState().signIn(await login(body));
      onLoggedIn();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPin('');
    } finally {
      setSending(false);
    }
  };

  return (
    <main className="tab-login">
      <form className="tab-login__card" onSubmit={(e) => void submit(e)} noValidate>
        <h1>{t('tablet.login.title')}</h1>
        {expired && !error && <p className="tab-login__note" role="status">{t('tablet.login.expired')}</p>}
        <label>
          {t('tablet.login.storeCode')}
          <input className="tab-input" value={storeCode} onChange={(e) => setStoreCode(e.target.value)} autoComplete="off" autoCapitalize="characters" data-testid="tablet-store-code" />
        </label>
        <label>
          {t('tablet.login.staffCode')}
          <input className="tab-input" value={staffCode} onChange={(e) => setStaffCode(e.target.value)} autoComplete="username" data-testid="tablet-staff-code" />
        </label>
        <label>
          {t('tablet.login.pin')}
          <input
            className="tab-input"
            type="password"
            inputMode="numeric"
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            autoComplete="current-password"
            data-testid="tablet-pin"
          />
        </label>
        {error && (
          <p className="tab-login__error" role="alert" data-testid="tablet-login-error">
            {error}
          </p>
        )}
        <button type="submit" className="tab-btn tab-btn--go tab-btn--block" disabled={sending} data-testid="tablet-login-submit">
          {sending ? t('tablet.login.submitting') : t('tablet.login.submit')}
        </button>
      </form>
    </main>
  );
}
