import { FormField } from '@/components/FormField';
import { useT } from '@/lib/i18n';
import type { SmsScene } from '@/lib/api/types';
import { SendCodeButton } from './SendCodeButton';

interface PhoneFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId: string;
}

/** The mobile number field of the login, register and reset forms. */
export function PhoneField({ value, onChange, error, testId }: PhoneFieldProps) {
  const t = useT();
  return (
    <FormField
      label={t('account.phone')}
      value={value}
      onChange={onChange}
      error={error}
      placeholder={t('account.phonePlaceholder')}
      inputMode="numeric"
      autoComplete="tel"
      maxLength={13}
      testId={testId}
    />
  );
}

interface SmsCodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId: string;
  /** The phone the code goes to, and what the code is for. */
  phone: string;
  scene: SmsScene;
  /** The phone's error under its field (null clears it). */
  onPhoneError: (message: string | null) => void;
}

/** The SMS code field with its send button and resend countdown. */
export function SmsCodeField({ value, onChange, error, testId, phone, scene, onPhoneError }: SmsCodeFieldProps) {
  const t = useT();
  return (
    <FormField
      label={t('account.code')}
      value={value}
      onChange={onChange}
      error={error}
      placeholder={t('account.codePlaceholder')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      testId={testId}
      addon={<SendCodeButton phone={phone} scene={scene} onPhoneError={onPhoneError} />}
    />
  );
}
