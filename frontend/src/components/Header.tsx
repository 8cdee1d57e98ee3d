import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useT } from '@/lib/i18n';
import { BackIcon } from './Icons';
import './Header.css';

export interface HeaderProps {
  title: ReactNode;
  /** Back action; `false` hides the button; omitted: history back, or home on a first page. */
  onBack?: (() => void) | false;
  /** Optional action on the right (text button or icon). */
  right?: ReactNode;
  /** Left slot instead of the back button (e.g. a menu button on home). */
  left?: ReactNode;
  variant?: 'light' | 'brand';
  /** Where the default back goes when there is no history (a shared link opened directly). */
  fallback?: string;
}

export function Header({ title, onBack, right, left, variant = 'light', fallback = '/' }: HeaderProps) {
  const navigate = useNavigate();
  const t = useT();
  const back = () => {
    if (onBack) {
      onBack();
      return;
    }
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  };
  return (
    <header className={`hdr hdr--${variant}`}>
      <div className="hdr__side">
        {left ??
          (onBack === false ? null : (
            <button type="button" className="hdr__btn" onClick={back} aria-label={t('common.back')}>
              <BackIcon />
            </button>
          ))}
      </div>
      <h1 className="hdr__title">{title}</h1>
      <div className="hdr__side hdr__side--right">{right}</div>
    </header>
  );
}
