import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/FormField';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { register } from '../api/account';
import { setPrivacyRefused } from '../store/consent';
import { checkNewPassword, checkPhone, checkSmsCode, collect } from '../validation';
import { AgreementCheck } from './AgreementCheck';
import { PhoneField, SmsCodeField } from './CredentialFields';
import { AuthShell } from './AuthShell';
import { useFinishLogin } from './LoginPage';
import { PrivacyConsentDialog } from './PrivacyConsentDialog';
import { SERVER_TOAST_MS, splitServerError, withoutKey } from './formErrors';
import './Account.css';

const FIELDS = ['cellPhone', 'smsCode', 'password', 'agreement'];
const RENAME = { privacyAgreed: 'agreement' };

/** /register: phone, SMS code, password and the agreement (asked in a dialog when not ticked). */
export function RegisterPage() {
  const t = useT();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [asking, setAsking] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const finish = useFinishLogin();

  const send = async (withAgreement: boolean) => {
    const keys = collect({ cellPhone: checkPhone(phone), smsCode: checkSmsCode(code), password: checkNewPassword(password) });
    const found = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!withAgreement) {
      setAsking(true);
      return;
    }
    setBusy(true);
    try {
      finish(await register(phone.replace(/[\s-]/g, ''), code.trim(), password), 'account.register.success');
    } catch (err) {
      const { fields, toast } = splitServerError(err, FIELDS, RENAME);
      setErrors(fields);
      if (toast) showToast(toast, SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(agreed);
  };

  return (
    <AuthShell title={t('account.register.title')} heading={t('account.register.title')} sub={t('account.login.subtitle')}>
      <form className="auth__form auth__form--solo" onSubmit={submit} noValidate>
        <PhoneField value={phone} onChange={setPhone} error={errors.cellPhone} testId="reg-phone" />
        <SmsCodeField
          value={code}
          onChange={setCode}
          error={errors.smsCode}
          testId="reg-code"
          phone={phone}
          scene="register"
          onPhoneError={(m) => setErrors((e) => (m ? { ...e, cellPhone: m } : withoutKey(e, 'cellPhone')))}
        />
        <FormField
          label={t('account.password')}
          value={password}
          onChange={setPassword}
          error={errors.password}
          placeholder={t('account.newPasswordPlaceholder')}
          type="password"
          autoComplete="new-password"
          maxLength={20}
          testId="reg-password"
        />
        <AgreementCheck checked={agreed} onChange={setAgreed} error={errors.agreement} />
        <button type="submit" className="btn btn--primary btn--block auth__submit" disabled={busy} data-testid="reg-submit">
          {t('account.register.submit')}
        </button>
        <div className="auth__links auth__links--center">
          <Link to="/login">{t('account.register.toLogin')}</Link>
        </div>
      </form>
      <PrivacyConsentDialog
        open={asking}
        onAgree={() => {
          setAsking(false);
          setAgreed(true);
          setPrivacyRefused(false);
          void send(true);
        }}
        onRefuse={() => {
          setAsking(false);
          setPrivacyRefused(true);
          setErrors((e) => ({ ...e, agreement: t('valid.agreement') }));
        }}
      />
    </AuthShell>
  );
}
