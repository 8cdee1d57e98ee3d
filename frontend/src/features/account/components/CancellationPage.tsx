import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { Header } from '@/components/Header';
import { AlertIcon } from '@/components/Icons';
import { showToast } from '@/components/Toast';
import { useT } from '@/lib/i18n';
import { closeAccount } from '../api/account';
import { useAccount } from '../store/session';
import { SERVER_TOAST_MS } from './formErrors';
import './Account.css';

/** /my/personalInfo/cancellation: what closing means, a confirm dialog, then logged out. */
export function CancellationPage({ onSignedOut }: { onSignedOut?: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const signOut = useAccount((s) => s.signOut);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  const close = async () => {
    setConfirm(false);
    setBusy(true);
    try {
      await closeAccount();
      signOut();
      onSignedOut?.();
      showToast(t('cancel.done'), SERVER_TOAST_MS);
      void navigate('/', { replace: true });
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), SERVER_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="my">
      <Header title={t('cancel.title')} />
      <section className="cancel">
        <span className="cancel__icon" aria-hidden="true">
          <AlertIcon />
        </span>
        <h2>{t('cancel.warnTitle')}</h2>
        <ul>
          <li>{t('cancel.warn1')}</li>
          <li>{t('cancel.warn2')}</li>
          <li>{t('cancel.warn3')}</li>
          <li>{t('cancel.warn4')}</li>
        </ul>
      </section>
      <div className="my__foot">
        <button type="button" className="btn btn--primary btn--block" onClick={() => setConfirm(true)} disabled={busy} data-testid="cancel-submit">
          {t('cancel.submit')}
        </button>
      </div>
      <Dialog open={confirm} title={t('cancel.title')} onConfirm={() => void close()} onCancel={() => setConfirm(false)}>
        <p className="dlg__text" data-testid="cancel-confirm">
          {t('cancel.confirm')}
        </p>
      </Dialog>
    </div>
  );
}
