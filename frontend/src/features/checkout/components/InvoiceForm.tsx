import { useT } from '@/lib/i18n';
import { invoiceProblems, TITLE_MAX, type InvoiceDraft, type InvoiceField, type InvoiceKind } from '../invoice';

interface Props {
  value: InvoiceDraft;
  onChange: (next: InvoiceDraft) => void;
  /** Fields the customer has left (or tried to submit): their problems show. */
  touched: Partial<Record<InvoiceField, boolean>>;
  onTouch: (field: InvoiceField) => void;
}

/** Personal or company, the title, a company's tax number and the e-invoice's email. */
export function InvoiceForm({ value, onChange, touched, onTouch }: Props) {
  const t = useT();
  const problems = invoiceProblems(value);
  const set = (patch: Partial<InvoiceDraft>) => onChange({ ...value, ...patch });
  const error = (field: InvoiceField) => {
    const p = touched[field] ? problems[field] : undefined;
    return p ? (
      <small className="co-invoice__error" role="alert" data-testid={`invoice-error-${field}`}>
        {t(`checkout.invoiceForm.${p}`)}
      </small>
    ) : null;
  };
  const kinds: InvoiceKind[] = ['personal', 'company'];
  return (
    <div className="co-invoice" data-testid="invoice-form">
      <div className="co-invoice__kinds" role="radiogroup" aria-label={t('checkout.invoiceForm.kind')}>
        {kinds.map((k) => (
          <button
            key={k}
            type="button"
            role="radio"
            aria-checked={value.kind === k}
            className={`co-invoice__kind${value.kind === k ? ' co-invoice__kind--on' : ''}`}
            onClick={() => set({ kind: k })}
            data-testid={`invoice-kind-${k}`}
          >
            {t(`checkout.invoiceForm.${k}`)}
          </button>
        ))}
      </div>
      <label className="co-field">
        <span className="co-field__label">{t('checkout.invoiceForm.title')}</span>
        <input
          className="co-field__input"
          value={value.title}
          maxLength={TITLE_MAX + 20}
          placeholder={t(value.kind === 'company' ? 'checkout.invoiceForm.companyPlaceholder' : 'checkout.invoiceForm.personalPlaceholder')}
          onChange={(e) => set({ title: e.target.value })}
          onBlur={() => onTouch('title')}
          aria-invalid={!!(touched.title && problems.title)}
          data-testid="invoice-title"
        />
        {error('title')}
      </label>
      {value.kind === 'company' && (
        <label className="co-field">
          <span className="co-field__label">{t('checkout.invoiceForm.taxNo')}</span>
          <input
            className="co-field__input"
            value={value.taxNo}
            maxLength={24}
            autoCapitalize="characters"
            placeholder={t('checkout.invoiceForm.taxNoPlaceholder')}
            onChange={(e) => set({ taxNo: e.target.value.toUpperCase() })}
            onBlur={() => onTouch('taxNo')}
            aria-invalid={!!(touched.taxNo && problems.taxNo)}
            data-testid="invoice-taxno"
          />
          {error('taxNo')}
        </label>
      )}
      <label className="co-field">
        <span className="co-field__label">{t('checkout.invoiceForm.email')}</span>
        <input
          className="co-field__input"
          type="email"
          inputMode="email"
          value={value.email}
          maxLength={64}
          placeholder={t('checkout.invoiceForm.emailPlaceholder')}
          onChange={(e) => set({ email: e.target.value })}
          onBlur={() => onTouch('email')}
          aria-invalid={!!(touched.email && problems.email)}
          data-testid="invoice-email"
        />
        {error('email')}
      </label>
    </div>
  );
}
