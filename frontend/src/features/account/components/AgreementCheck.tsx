import { Link } from 'react-router';
import { CheckIcon } from '@/components/Icons';
import { FieldError } from '@/components/FormField';
import { useT } from '@/lib/i18n';

export interface AgreementCheckProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
}

/** "I have read and agree to the User Agreement and Privacy Policy" (must be ticked, spec §5). */
export function AgreementCheck({ checked, onChange, error }: AgreementCheckProps) {
  const t = useT();
  return (
    <div className="agree">
      <label className="agree__row">
        <input
          type="checkbox"
          className="agree__input"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          data-testid="agreement"
        />
        <span className={`agree__box${checked ? ' agree__box--on' : ''}`} aria-hidden="true">
          {checked && <CheckIcon />}
        </span>
        <span className="agree__text">
          {t('account.agreePrefix')} <Link to="/system/userProtocol">{t('account.userAgreement')}</Link> {t('account.and')}{' '}
          <Link to="/system/privacyProtocol" data-testid="privacy-link">
            {t('account.privacyPolicy')}
          </Link>
        </span>
      </label>
      <FieldError error={error} testId="agreement-error" />
    </div>
  );
}
