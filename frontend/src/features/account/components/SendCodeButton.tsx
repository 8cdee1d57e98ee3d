import { useState } from 'react';
import { showToast } from '@/components/Toast';
import { useCountdown } from '@/hooks/useCountdown';
import { ERR, isApiError, retryAfterSeconds } from '@/lib/api';
import { useT } from '@/lib/i18n';
import type { SmsScene } from '@/lib/api/types';
import { sendSmsCode } from '../api/account';
import { checkPhone } from '../validation';
import { SERVER_TOAST_MS, splitServerError } from './formErrors';

/** The resend wait when the server does not say (spec: 60 s). */
export const RESEND_SECONDS = 60;

export interface SendCodeButtonProps {
  phone: string;
  scene: SmsScene;
  /** The phone's error under its field (null clears it). */
  onPhoneError: (message: string | null) => void;
}

/** "Get code", then "Resend in Ns" for the wait the server gives (resendAfterSeconds / retryAfterSeconds). */
export function SendCodeButton({ phone, scene, onPhoneError }: SendCodeButtonProps) {
  const t = useT();
  const { left, start } = useCountdown();
  const [busy, setBusy] = useState(false);

  const send = async () => {
    const bad = checkPhone(phone);
    if (bad) {
      onPhoneError(t(bad));
      return;
    }
    onPhoneError(null);
    setBusy(true);
    try {
      const sent = await sendSmsCode(phone.replace(/[\s-]/g, ''), scene);
      start(sent.resendAfterSeconds || RESEND_SECONDS);
      showToast(t('account.codeSent'), SERVER_TOAST_MS);
    } catch (e) {
      if (isApiError(e) && e.errCode === ERR.TOO_FREQUENT) start(retryAfterSeconds(e) ?? RESEND_SECONDS);
      const { fields, toast } = splitServerError(e, ['cellPhone']);
      if (fields.cellPhone) onPhoneError(fields.cellPhone);
      if (toast) showToast(toast, SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="codebtn" onClick={() => void send()} disabled={busy || left > 0} data-testid="send-code">
      {left > 0 ? t('account.resend', { n: left }) : t('account.sendCode')}
    </button>
  );
}
