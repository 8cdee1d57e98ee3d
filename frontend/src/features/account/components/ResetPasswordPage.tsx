import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FormField } from '@/components/FormField';
import { PhoneField, SmsCodeField } from './CredentialFields';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { resetPassword } from '../api/account';
import { checkNewPassword, checkPhone, checkSmsCode, collect } from '../validation';
import { AuthShell } from './AuthShell';
import { SERVER_TOAST_MS, splitServerError, withoutKey } from './formErrors';
import './Account.css';

const FIELDS = ['cellPhone', 'smsCode', 'password'];

/** /resetPassword: phone, SMS code and a new password; then log in again. */
export function ResetPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const keys = collect({ cellPhone: checkPhone(phone), smsCode: checkSmsCode(code), password: checkNewPassword(password) });
    const found = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await resetPassword(phone.replace(/[\s-]/g, ''), code.trim(), password);
      showToast(t('account.reset.success'), SERVER_TOAST_MS);
      void navigate('/login', { replace: true });
    } catch (err) {
      const { fields, toast } = splitServerError(err, FIELDS);
      setErrors(fields);
      if (toast) showToast(toast, SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthShell title={t('account.reset.title')} heading={t('account.reset.title')}>
      <form className="auth__form auth__form--solo" onSubmit={(e) => void submit(e)} noValidate>
        <PhoneField value={phone} onChange={setPhone} error={errors.cellPhone} testId="reset-phone" />
        <SmsCodeField
          value={code}
          onChange={setCode}
          error={errors.smsCode}
          testId="reset-code"
          phone={phone}
          scene="reset"
          onPhoneError={(m) => setErrors((e) => (m ? { ...e, cellPhone: m } : withoutKey(e, 'cellPhone')))}
        />
        <FormField
          label={t('account.newPassword')}
          value={password}
          onChange={setPassword}
          error={errors.password}
          placeholder={t('account.newPasswordPlaceholder')}
          type="password"
          autoComplete="new-password"
          maxLength={20}
          testId="reset-password"
        />
        <button type="submit" className="btn btn--primary btn--block auth__submit" disabled={busy} data-testid="reset-submit">
          {t('account.reset.submit')}
        </button>
      </form>
    </AuthShell>
  );
}
