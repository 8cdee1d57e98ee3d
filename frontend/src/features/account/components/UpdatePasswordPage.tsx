import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FormField } from '@/components/FormField';
import { Header } from '@/components/Header';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { changePassword } from '../api/account';
import { checkLoginPassword, checkNewPassword, collect } from '../validation';
import { SERVER_TOAST_MS, splitServerError } from './formErrors';
import { useMe } from './useMe';
import './Account.css';

const FIELDS = ['oldPassword', 'newPassword', 'confirm'];

/** /my/personalInfo/updatePassword (accounts made by SMS login have no old password to give). */
export function UpdatePasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const { user } = useMe();
  const needsOld = user?.hasPassword !== false;
  const [oldPw, setOldPw] = useState('');
  const [newPw, setNewPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const keys = collect({
      ...(needsOld ? { oldPassword: checkLoginPassword(oldPw) } : {}),
      newPassword: checkNewPassword(newPw),
      confirm: confirm === newPw ? null : 'valid.passwordMismatch',
    });
    const found = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await changePassword(needsOld ? oldPw : null, newPw);
      showToast(t('password.changed'), SERVER_TOAST_MS);
      void navigate(-1);
    } catch (err) {
      const { fields, toast } = splitServerError(err, FIELDS);
      setErrors(fields);
      if (toast) showToast(toast, SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="my">
      <Header title={t('password.title')} />
      <form className="sheet" onSubmit={(e) => void submit(e)} noValidate>
        {needsOld && (
          <FormField label={t('account.oldPassword')} value={oldPw} onChange={setOldPw} error={errors.oldPassword} placeholder={t('account.oldPasswordPlaceholder')} type="password" autoComplete="current-password" testId="pw-old" />
        )}
        <FormField label={t('account.newPassword')} value={newPw} onChange={setNewPw} error={errors.newPassword} placeholder={t('account.newPasswordPlaceholder')} type="password" autoComplete="new-password" maxLength={20} testId="pw-new" />
        <FormField label={t('account.confirmPassword')} value={confirm} onChange={setConfirm} error={errors.confirm} placeholder={t('account.confirmPasswordPlaceholder')} type="password" autoComplete="new-password" maxLength={20} testId="pw-confirm" />
        <button type="submit" className="btn btn--primary btn--block sheet__submit" disabled={busy} data-testid="pw-save">
          {t('common.confirm')}
        </button>
      </form>
    </div>
  );
}
