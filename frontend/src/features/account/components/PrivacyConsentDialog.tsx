import { Link } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { useT } from '@/lib/i18n';

export interface PrivacyConsentDialogProps {
  open: boolean;
  onAgree: () => void;
  onRefuse: () => void;
}

/** The privacy consent dialog (spec account §4): agree or refuse; refusing leaves anonymous browsing. */
export function PrivacyConsentDialog({ open, onAgree, onRefuse }: PrivacyConsentDialogProps) {
  const t = useT();
  return (
    <Dialog
      open={open}
      title={t('privacy.consentTitle')}
      confirmText={t('privacy.agree')}
      cancelText={t('privacy.refuse')}
      onConfirm={onAgree}
      onCancel={onRefuse}
      onClose={() => undefined}
    >
      <div className="consent" data-testid="privacy-dialog">
        <p>{t('privacy.consentBody')}</p>
        <Link to="/system/privacyProtocol" className="consent__link">
          {t('account.privacyPolicy')} · {t('privacy.read')}
        </Link>
      </div>
    </Dialog>
  );
}
