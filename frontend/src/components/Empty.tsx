import type { ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import './Empty.css';

export interface EmptyProps {
  text?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
}

export function Empty({ text, icon, action }: EmptyProps) {
  const t = useT();
  return (
    <div className="empty" role="note">
      <div className="empty__art" aria-hidden="true">
        {icon ?? (
          <svg viewBox="0 0 64 64" width="100%" height="100%">
            <circle cx="32" cy="34" r="22" fill="#f3e6d6" />
            <path d="M32 12 L52 46 A24 24 0 0 1 12 46 Z" fill="#f6c46b" />
            <path d="M32 12 L52 46 A24 24 0 0 1 12 46 Z" fill="none" stroke="#d99a3a" strokeWidth="2" />
            <circle cx="28" cy="34" r="3" fill="#E31837" opacity="0.75" />
            <circle cx="37" cy="40" r="3" fill="#E31837" opacity="0.75" />
            <circle cx="27" cy="44" r="2.2" fill="#5a8f3c" />
          </svg>
        )}
      </div>
      <p className="empty__text">{text ?? t('common.empty')}</p>
      {action && <div className="empty__action">{action}</div>}
    </div>
  );
}
