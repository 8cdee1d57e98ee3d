import { createContext, useContext, type ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import './Loading.css';

/**
 * Which animation the loading component shows (spec ordering §2): a delivery scooter when the
 * current store offers delivery (service method 0), otherwise a pizza. The app layer knows the store
 * and provides the variant; shared components stay ignorant of features.
 */
export type LoadingVariant = 'delivery' | 'pizza';
const LoadingVariantContext = createContext<LoadingVariant>('pizza');

export function LoadingVariantProvider({ variant, children }: { variant: LoadingVariant; children: ReactNode }) {
  return <LoadingVariantContext.Provider value={variant}>{children}</LoadingVariantContext.Provider>;
}

export interface LoadingProps {
  /** Overrides the provided variant. */
  variant?: LoadingVariant;
  text?: ReactNode;
  /** With an error the animation stops and the message shows. */
  error?: ReactNode;
  /** Retry button text; the button shows only when this is set (spec ordering §2). */
  reloadText?: ReactNode;
  onReload?: () => void;
  /** Fill the page body (route-level loading) rather than a block. */
  page?: boolean;
}

export function Loading({ variant, text, error, reloadText, onReload, page }: LoadingProps) {
  const t = useT();
  const provided = useContext(LoadingVariantContext);
  const kind = variant ?? provided;
  return (
    <div className={`loading${page ? ' loading--page' : ''}`} role={error ? 'alert' : 'status'} aria-busy={!error}>
      {error ? (
        <>
          <ErrorArt />
          <p className="loading__error">{error}</p>
          {reloadText && (
            <button type="button" className="btn btn--primary loading__retry" onClick={onReload}>
              {reloadText}
            </button>
          )}
        </>
      ) : (
        <>
          {kind === 'delivery' ? <ScooterArt /> : <PizzaArt />}
          <p className="loading__text">{text ?? t('common.loading')}</p>
        </>
      )}
    </div>
  );
}

function ScooterArt() {
  return (
    <svg className="loading__art loading__art--scooter" viewBox="0 0 160 90" data-variant="delivery" aria-hidden="true">
      <g className="ld-road">
        <path d="M0 82h26M40 82h26M80 82h26M120 82h26M160 82h26" stroke="#c9c2b8" strokeWidth="3" strokeLinecap="round" />
      </g>
      <g className="ld-wind" stroke="#c9c2b8" strokeWidth="2.5" strokeLinecap="round">
        <path d="M8 40h18M2 52h16M10 64h12" />
      </g>
      <g className="ld-bike">
        {/* box */}
        <rect x="36" y="26" width="34" height="26" rx="3" fill="#E31837" />
        <rect x="36" y="26" width="34" height="7" rx="2" fill="#b5122b" />
        <circle cx="53" cy="41" r="6" fill="#fff" />
        <circle cx="53" cy="41" r="3" fill="#006491" />
        {/* body */}
        <path d="M40 56h46l10-14h12l-6 22H44z" fill="#006491" />
        <path d="M100 42l-6-20h8" stroke="#333" strokeWidth="4" strokeLinecap="round" fill="none" />
        <rect x="98" y="19" width="12" height="4" rx="2" fill="#333" />
        {/* rider */}
        <circle cx="84" cy="14" r="7" fill="#E31837" />
        <path d="M78 16h12" stroke="#fff" strokeWidth="2" />
        <path d="M80 21c-6 4-6 14-4 22h10l4-10 8-8" stroke="#2d3b45" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" fill="none" />
        <g className="ld-wheel" style={{ transformOrigin: '48px 68px' }}>
          <circle cx="48" cy="68" r="11" fill="#222" />
          <circle cx="48" cy="68" r="5" fill="#ddd" />
          <path d="M48 58v20M38 68h20" stroke="#888" strokeWidth="1.5" />
        </g>
        <g className="ld-wheel" style={{ transformOrigin: '110px 68px' }}>
          <circle cx="110" cy="68" r="11" fill="#222" />
          <circle cx="110" cy="68" r="5" fill="#ddd" />
          <path d="M110 58v20M100 68h20" stroke="#888" strokeWidth="1.5" />
        </g>
      </g>
    </svg>
  );
}

function PizzaArt() {
  return (
    <svg className="loading__art loading__art--pizza" viewBox="0 0 100 100" data-variant="pizza" aria-hidden="true">
      <g className="ld-spin" style={{ transformOrigin: '50px 50px' }}>
        <circle cx="50" cy="50" r="44" fill="#e9a94a" />
        <circle cx="50" cy="50" r="37" fill="#f6d27a" />
        <circle cx="50" cy="50" r="37" fill="none" stroke="#e3553a" strokeWidth="3" opacity="0.45" />
        <circle cx="36" cy="36" r="6" fill="#E31837" />
        <circle cx="62" cy="33" r="6" fill="#E31837" />
        <circle cx="66" cy="60" r="6" fill="#E31837" />
        <circle cx="40" cy="64" r="6" fill="#E31837" />
        <circle cx="51" cy="49" r="5" fill="#E31837" />
        <path d="M50 50L50 6M50 50L88 72M50 50L12 72" stroke="#c98a33" strokeWidth="1.6" />
        <circle cx="46" cy="24" r="2.2" fill="#4f8a3a" />
        <circle cx="74" cy="46" r="2.2" fill="#4f8a3a" />
        <circle cx="28" cy="52" r="2.2" fill="#4f8a3a" />
        <circle cx="56" cy="74" r="2.2" fill="#4f8a3a" />
      </g>
    </svg>
  );
}

function ErrorArt() {
  return (
    <svg className="loading__art loading__art--error" viewBox="0 0 100 100" aria-hidden="true">
      <circle cx="50" cy="50" r="40" fill="#fbe3e7" />
      <path d="M50 28v28" stroke="#E31837" strokeWidth="7" strokeLinecap="round" />
      <circle cx="50" cy="70" r="4.5" fill="#E31837" />
    </svg>
  );
}
