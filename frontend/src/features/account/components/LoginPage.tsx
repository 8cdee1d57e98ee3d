import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormField } from '@/components/FormField';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import type { LoginReply } from '@/lib/api/types';
import { loginByPassword, loginBySms } from '../api/account';
import { useAccount } from '../store/session';
import { setPrivacyRefused } from '../store/consent';
import { takeRedirect } from '../store/redirect';
import { checkAgreement, checkLoginPassword, checkPhone, checkSmsCode, collect } from '../validation';
import { AgreementCheck } from './AgreementCheck';
import { PhoneField, SmsCodeField } from './CredentialFields';
import { AuthShell } from './AuthShell';
import { withoutKey } from './formErrors';
import { SERVER_TOAST_MS, splitServerError } from './formErrors';
import './Account.css';

type Tab = 'password' | 'sms';
const FIELDS = ['cellPhone', 'password', 'smsCode', 'agreement'];
const RENAME = { privacyAgreed: 'agreement' };

/** After a login: the remembered page (10 s), else home. */
export function useFinishLogin(): (reply: LoginReply, toastKey?: 'account.login.success' | 'account.register.success') => void {
  const navigate = useNavigate();
  const t = useT();
  const signIn = useAccount((s) => s.signIn);
  return (reply, toastKey = 'account.login.success') => {
    signIn(reply);
    setPrivacyRefused(false);
    showToast(t(toastKey), SERVER_TOAST_MS);
    void navigate(takeRedirect() ?? '/', { replace: true });
  };
}

/** /login: by password or by SMS code (which signs a new phone up on the fly). */
export function LoginPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'sms' ? 'sms' : 'password';
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [showPw, setShowPw] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const finish = useFinishLogin();

  const setErr = (field: string, message: string | null) =>
    setErrors((e) => (message ? { ...e, [field]: message } : withoutKey(e, field)));

  const switchTab = (next: Tab) => {
    setErrors({});
    setParams(next === 'sms' ? { tab: 'sms' } : {}, { replace: true });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const keys = collect({
      cellPhone: checkPhone(phone),
      ...(tab === 'password' ? { password: checkLoginPassword(password) } : { smsCode: checkSmsCode(code) }),
      agreement: checkAgreement(agreed),
    });
    const found = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const cell = phone.replace(/[\s-]/g, '');
      const reply = tab === 'password' ? await loginByPassword(cell, password) : await loginBySms(cell, code.trim(), agreed);
      finish(reply);
    } catch (err) {
      const { fields, toast } = splitServerError(err, FIELDS, RENAME);
      setErrors(fields);
      if (toast) showToast(toast, SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthShell title={t('account.login.title')} heading={t('account.login.welcome')} sub={t('account.login.subtitle')}>
      <div className="tabs auth__tabs" role="tablist">
        {(['password', 'sms'] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={tab === k}
            className={`tabs__tab${tab === k ? ' tabs__tab--on' : ''}`}
            onClick={() => switchTab(k)}
            data-testid={`login-tab-${k}`}
          >
            {t(k === 'password' ? 'account.login.tabPassword' : 'account.login.tabSms')}
          </button>
        ))}
      </div>
      <form className="auth__form" onSubmit={(e) => void submit(e)} noValidate>
        <PhoneField value={phone} onChange={setPhone} error={errors.cellPhone} testId="login-phone" />
        {tab === 'password' ? (
          <FormField
            label={t('account.password')}
            value={password}
            onChange={setPassword}
            error={errors.password}
            placeholder={t('account.passwordPlaceholder')}
            type={showPw ? 'text' : 'password'}
            autoComplete="current-password"
            maxLength={20}
            testId="login-password"
            addon={
              <button type="button" className={`eyebtn${showPw ? ' eyebtn--on' : ''}`} onClick={() => setShowPw((v) => !v)} aria-label={t('account.showPassword')} aria-pressed={showPw}>
                <EyeIcon />
              </button>
            }
          />
        ) : (
          <SmsCodeField
            value={code}
            onChange={setCode}
            error={errors.smsCode}
            testId="login-code"
            phone={phone}
            scene="login"
            onPhoneError={(m) => setErr('cellPhone', m)}
          />
        )}
        <AgreementCheck checked={agreed} onChange={(v) => { setAgreed(v); if (v) setErr('agreement', null); }} error={errors.agreement} />
        <button type="submit" className="btn btn--primary btn--block auth__submit" disabled={busy} data-testid="login-submit">
          {t('account.login.submit')}
        </button>
        <div className="auth__links">
          <Link to="/register" data-testid="to-register">
            {t('account.login.toRegister')}
          </Link>
          <Link to="/resetPassword">{t('account.login.forgot')}</Link>
        </div>
      </form>
    </AuthShell>
  );
}

export function EyeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}
