/** The icons of the home page, its side navigation and the language switch: in the first load. */
import { base, type IconProps } from './iconBase';

export const MenuIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </svg>
);
export const SearchIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </svg>
);
export const ChevronRightIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M9 5l7 7-7 7" />
  </svg>
);
export const StoreIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M4 9.5l1.5-5h13l1.5 5M4 9.5h16M4 9.5a2.7 2.7 0 005.3 0 2.7 2.7 0 005.4 0 2.7 2.7 0 005.3 0M5.5 12v7.5h13V12M10 19.5v-4.5h4v4.5" />
  </svg>
);
export const GlobeIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.5 2.5 3.6 5.3 3.6 8.5s-1.1 6-3.6 8.5c-2.5-2.5-3.6-5.3-3.6-8.5s1.1-6 3.6-8.5z" />
  </svg>
);
export const ScooterIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <circle cx="6" cy="17" r="2.5" />
    <circle cx="18" cy="17" r="2.5" />
    <path d="M8.5 17h7l2-6h-3M14.5 5h2.5l1.5 6M3.5 13h6l2 4" />
  </svg>
);
export const BagIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M5.5 8h13l-1 12h-11z" />
    <path d="M9 10V7a3 3 0 016 0v3" />
  </svg>
);
export const UserIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <circle cx="12" cy="8.5" r="4" />
    <path d="M4.5 20.5c1.2-3.7 4-5.5 7.5-5.5s6.3 1.8 7.5 5.5" />
  </svg>
);
export const ReceiptIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6M9 16h3" />
  </svg>
);
export const TicketIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M3.5 8a2 2 0 002-2h13a2 2 0 002 2v2a2 2 0 000 4v2a2 2 0 00-2 2h-13a2 2 0 00-2-2v-2a2 2 0 000-4z" />
    <path d="M14 6v12" strokeDasharray="2 2" />
  </svg>
);
export const HomeIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M4 11l8-7 8 7v9h-5v-6h-6v6H4z" />
  </svg>
);
export const PizzaIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M12 21L3.5 6.5a14 14 0 0117 0z" />
    <path d="M5 9a11 11 0 0114 0" />
    <circle cx="10" cy="11.5" r="1" />
    <circle cx="14" cy="12.5" r="1" />
    <circle cx="12" cy="16" r="1" />
  </svg>
);
export const CloseIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
