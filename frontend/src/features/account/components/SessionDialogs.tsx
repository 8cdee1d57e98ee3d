import { useEffect, useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import type { Me } from '@/lib/api/types';
import { decidePrivacy, getMe, updateMarketing } from '../api/account';
import { marketingMayAsk, marketingShown, privacyRefused, setMarketingShown, setPrivacyRefused } from '../store/consent';
import { useAccount } from '../store/session';
import { SERVER_TOAST_MS } from './formErrors';
import { PrivacyConsentDialog } from './PrivacyConsentDialog';

type Step = 'none' | 'privacy' | 'marketing';

/** The SMS dialog: once per login, unless the user has agreed or ticked "don't remind me again". */
export function wantsMarketing(user: Me): boolean {
  return !user.isPersonalizedAgree && !user.isRemindAgain && !marketingShown(user.id);
}

/**
 * After a login (or on start with a token): GET /me; a consentRequired answer asks for privacy
 * consent (agree → recorded; refuse → recorded, session-only cancel flag, logged out locally),
 * then the SMS-notification dialog, held until the customer is on a page where it may be asked
 * (`marketingMayAsk`: never during checkout). Lives once in the app layout.
 */
export function SessionDialogs({ onSignedOut, pathname }: { onSignedOut?: () => void; pathname: string }) {
  const t = useT();
  const token = useAccount((s) => s.token);
  const setUser = useAccount((s) => s.setUser);
  const signOut = useAccount((s) => s.signOut);
  const [user, setLocalUser] = useState<Me | null>(null);
  const [step, setStep] = useState<Step>('none');
  const [noRemind, setNoRemind] = useState(false);

  useEffect(() => {
    if (!token) {
      setStep('none');
      return undefined;
    }
    const controller = new AbortController();
    getMe(controller.signal).then(
      (me) => {
        if (controller.signal.aborted) return;
        setUser(me);
        setLocalUser(me);
        if (me.consentRequired && !privacyRefused()) setStep('privacy');
        else if (wantsMarketing(me)) setStep('marketing');
      },
      () => undefined, // 401 / 407 are handled by the app; anything else just skips the dialogs
    );
    return () => controller.abort();
  }, [token, setUser]);

  const agree = async () => {
    setStep('none');
    setPrivacyRefused(false);
    try {
      await decidePrivacy('agree');
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), SERVER_TOAST_MS);
    }
    if (user && wantsMarketing(user)) setStep('marketing');
  };

  const refuse = async () => {
    setStep('none');
    setPrivacyRefused(true);
    try {
      await decidePrivacy('refuse');
    } catch {
      // Logged out locally whatever the server says.
    }
    signOut();
    onSignedOut?.();
    showToast(t('privacy.refused'));
  };

  const answerMarketing = (enable: boolean) => {
    setStep('none');
    if (user) setMarketingShown(user.id);
    if (!enable && !noRemind) return;
    updateMarketing({ isPersonalizedAgree: enable, isRemindAgain: noRemind }).then(
      (s) => {
        if (user) setUser({ ...user, ...s });
      },
      (e: unknown) => showToast(e instanceof Error ? e.message : String(e), SERVER_TOAST_MS),
    );
  };

  return (
    <>
      <PrivacyConsentDialog open={step === 'privacy'} onAgree={() => void agree()} onRefuse={() => void refuse()} />
      <Dialog
        open={step === 'marketing' && marketingMayAsk(pathname)}
        title={t('mkt.title')}
        confirmText={t('mkt.enable')}
        cancelText={t('mkt.later')}
        onConfirm={() => answerMarketing(true)}
        onCancel={() => answerMarketing(false)}
      >
        <div className="consent" data-testid="marketing-dialog">
          <p>{t('mkt.body')}</p>
          <label className="consent__check">
            <input type="checkbox" checked={noRemind} onChange={(e) => setNoRemind(e.target.checked)} data-testid="marketing-no-remind" />
            {t('mkt.noRemind')}
          </label>
        </div>
      </Dialog>
    </>
  );
}
