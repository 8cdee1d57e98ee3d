import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '@/lib/i18n';
import { CloseIcon } from './Icons';
import './Dialog.css';

export interface DialogProps {
  open: boolean;
  /** centre: a 0.1 s dialog; bottom: a 0.35 s popup sliding up. */
  position?: 'center' | 'bottom';
  title?: ReactNode;
  children?: ReactNode;
  confirmText?: ReactNode;
  /** Shown when given (or when onCancel is given, with the default text). */
  cancelText?: ReactNode;
  onConfirm?: () => void;
  onCancel?: () => void;
  /** Mask click, Escape, close button. Defaults to onCancel. */
  onClose?: () => void;
  /** Hides the buttons row (the body brings its own actions). */
  noFooter?: boolean;
}

/** Dialog width 85 % of the page, body at most 60 % of the viewport high (spec ordering §9). */
export function Dialog({
  open,
  position = 'center',
  title,
  children,
  confirmText,
  cancelText,
  onConfirm,
  onCancel,
  onClose,
  noFooter,
}: DialogProps) {
  const t = useT();
  const titleId = useId();
  const close = onClose ?? onCancel;
  useEffect(() => {
    if (!open || !close) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);
  if (!open) return null;
  const showCancel = cancelText !== undefined || onCancel !== undefined;
  return createPortal(
    <div className={`dlg-mask dlg-mask--${position}`} onClick={close} role="presentation">
      <div
        className={`dlg dlg--${position}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        onClick={(e) => e.stopPropagation()}
      >
        {(title || position === 'bottom') && (
          <div className="dlg__head">
            {title && (
              <h2 className="dlg__title" id={titleId}>
                {title}
              </h2>
            )}
            {position === 'bottom' && close && (
              <button type="button" className="dlg__x" onClick={close} aria-label={t('common.close')}>
                <CloseIcon />
              </button>
            )}
          </div>
        )}
        <div className="dlg__body">{children}</div>
        {!noFooter && (
          <div className="dlg__foot">
            {showCancel && (
              <button type="button" className="btn btn--ghost" onClick={onCancel ?? close}>
                {cancelText ?? t('common.cancel')}
              </button>
            )}
            <button type="button" className="btn btn--primary" onClick={onConfirm ?? close}>
              {confirmText ?? t('common.confirm')}
            </button>
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
