import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FieldError, FormField } from '@/components/FormField';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { now } from '@/lib/clock';
import { useT } from '@/lib/i18n';
import type { Me } from '@/lib/api/types';
import { updateMe } from '../api/account';
import { useAccount } from '../store/session';
import { MIN_BIRTHDAY, NAME_MAX, checkBirthday, checkEmail, checkGender, checkName, collect } from '../validation';
import { SERVER_TOAST_MS, splitServerError } from './formErrors';
import { useMe } from './useMe';
import './Account.css';

const FIELDS = ['name', 'email', 'gender', 'birthday'];

/** Today in China (UTC+8) as YYYY-MM-DD: the birthday picker's upper bound. */
export function chinaToday(ms = now()): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
}

/** 14 years before `today` (the picker opens there when no birthday is set). */
export function defaultBirthday(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const year = (y ?? 2000) - 14;
  const day = m === 2 && d === 29 ? 28 : (d ?? 1);
  return `${year}-${String(m ?? 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** /my/personalInfo/updateUserInfo: name (≤15), email, gender and birthday (1910-01-01 to today). */
export function UpdateUserInfoPage() {
  const { user } = useMe();
  if (!user) return <Loading />;
  return <ProfileForm user={user} />;
}

export function ProfileForm({ user }: { user: Me }) {
  const t = useT();
  const navigate = useNavigate();
  const setUser = useAccount((s) => s.setUser);
  const today = chinaToday();
  const [name, setName] = useState(user.name ?? '');
  const [email, setEmail] = useState(user.email ?? '');
  const [gender, setGender] = useState(user.gender);
  const [birthday, setBirthday] = useState(user.birthday ?? user.defaultBirthday ?? defaultBirthday(today));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const keys = collect({ name: checkName(name), email: checkEmail(email), gender: checkGender(gender), birthday: checkBirthday(birthday, today) });
    const found = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      setUser(await updateMe({ name: name.trim(), email: email.trim(), gender, birthday }));
      showToast(t('info.saved'), SERVER_TOAST_MS);
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
      <Header title={t('info.updateTitle')} />
      <form className="sheet" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label={t('info.name')} value={name} onChange={setName} error={errors.name} placeholder={t('info.namePlaceholder')} maxLength={NAME_MAX + 5} testId="profile-name" />
        <FormField label={t('info.email')} value={email} onChange={setEmail} error={errors.email} placeholder={t('info.emailPlaceholder')} type="email" autoComplete="email" testId="profile-email" />
        <div className="ff">
          <div className="ff__row">
            <span className="ff__label" id="gender-label">
              {t('info.gender')}
            </span>
            <div className="seg seg--inline" role="radiogroup" aria-labelledby="gender-label">
              {[1, 2].map((g) => (
                <button
                  key={g}
                  type="button"
                  role="radio"
                  aria-checked={gender === g}
                  className={`seg__btn${gender === g ? ' seg__btn--on' : ''}`}
                  onClick={() => setGender(g)}
                  data-testid={`gender-${g}`}
                >
                  {t(g === 1 ? 'info.gender.1' : 'info.gender.2')}
                </button>
              ))}
            </div>
          </div>
          <FieldError error={errors.gender} testId="profile-gender-error" />
        </div>
        <FormField label={t('info.birthday')} value={birthday} onChange={setBirthday} error={errors.birthday} type="date" min={MIN_BIRTHDAY} max={today} testId="profile-birthday" />
        <button type="submit" className="btn btn--primary btn--block sheet__submit" disabled={busy} data-testid="profile-save">
          {t('common.save')}
        </button>
      </form>
    </div>
  );
}
