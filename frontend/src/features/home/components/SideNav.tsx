import { useEffect, type ComponentType, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import {
  ChevronRightIcon,
  CloseIcon,
  HomeIcon,
  MenuIcon,
  PizzaIcon,
  ReceiptIcon,
  SearchIcon,
  StoreIcon,
  TicketIcon,
  UserIcon,
} from '@/components/Icons';
import { useT } from '@/lib/i18n';
import { visibleNavItems, type NavIcon, type NavItem } from '../nav';

const ICONS: Record<NavIcon, ComponentType<{ className?: string }>> = {
  home: HomeIcon,
  menu: PizzaIcon,
  store: StoreIcon,
  search: SearchIcon,
  orders: ReceiptIcon,
  coupons: TicketIcon,
  user: UserIcon,
};

export interface SideNavProps {
  open: boolean;
  onClose: () => void;
  items: NavItem[];
  loggedIn: boolean;
  /** The logged-in user's display name (masked phone when no name). */
  userName?: string | null;
  hidden?: string[];
  onNavigate: (path: string) => void;
  footer?: ReactNode;
}

export function SideNav({ open, onClose, items, loggedIn, userName, hidden, onNavigate, footer }: SideNavProps) {
  const t = useT();
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  return createPortal(
    <div className="sidenav-mask" onClick={onClose} role="presentation">
      <nav className="sidenav" aria-label={t('nav.title')} onClick={(e) => e.stopPropagation()} data-testid="side-nav">
        <div className="sidenav__head">
          <button
            type="button"
            className="sidenav__me"
            onClick={() => {
              onClose();
              onNavigate(loggedIn ? '/my' : '/login');
            }}
            data-testid="nav-user"
          >
            <span className="sidenav__avatar">
              <UserIcon />
            </span>
            <span className="sidenav__who">
              <strong>{loggedIn ? t('nav.hello', { name: userName ?? '' }) : t('nav.guest')}</strong>
              <small>{loggedIn ? t('nav.userHint') : `${t('nav.login')} · ${t(hidden?.includes('coupons') ? 'nav.guestHintNoCoupons' : 'nav.guestHint')}`}</small>
            </span>
          </button>
          <button type="button" className="sidenav__close" onClick={onClose} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </div>
        <ul className="sidenav__list">
          {visibleNavItems(items, loggedIn, hidden).map((item) => {
            const Icon = ICONS[item.icon] ?? MenuIcon;
            return (
              <li key={item.key}>
                <button
                  type="button"
                  className="sidenav__item"
                  onClick={() => {
                    onClose();
                    onNavigate(item.path);
                  }}
                  data-testid={`nav-${item.key}`}
                >
                  <Icon className="sidenav__icon" />
                  <span>{t(item.label)}</span>
                  <ChevronRightIcon className="sidenav__chev" />
                </button>
              </li>
            );
          })}
        </ul>
        {footer && <div className="sidenav__foot">{footer}</div>}
      </nav>
    </div>,
    document.body,
  );
}
