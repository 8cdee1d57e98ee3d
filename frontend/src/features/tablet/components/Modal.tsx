import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '@/lib/i18n';

export interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** side: a drawer from the right (order detail, sold-out list); center: a dialog. */
  variant?: 'center' | 'side';
  testId?: string;
}

/**
 * The tablet's dialog: sized in px for a 1280×800 screen (the shared Dialog is sized for the
 * customer's 10rem phone column).
 */
export function Modal({ title, onClose, children, footer, variant = 'center', testId }: ModalProps) {
  const t = useT();
  const titleId = useId();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return createPortal(
    <div className={`tab-mask tab-mask--${variant}`} onClick={onClose} role="presentation">
      <div className={`tab-modal tab-modal--${variant}`} role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()} data-testid={testId}>
        <div className="tab-modal__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="tab-modal__x" onClick={onClose} aria-label={t('common.close')}>
            ×
          </button>
        </div>
        <div className="tab-modal__body">{children}</div>
        {footer && <div className="tab-modal__foot">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
