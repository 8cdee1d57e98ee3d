/** The member centre's entry icons (in the member chunk only). */
import { base, type IconProps } from '@/components/iconBase';

export const CoinIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M9.5 9.5h4a1.8 1.8 0 010 3.6h-3a1.8 1.8 0 000 3.6h4M12 7.5v1.8M12 16.7v1.8" />
  </svg>
);
export const CrownIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M4 18h16M5 15l-1.5-8 5 4L12 5l3.5 6 5-4L19 15z" />
  </svg>
);
export const GiftIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <rect x="3.5" y="9" width="17" height="11" rx="1.5" />
    <path d="M2.5 9h19M12 9v11M12 9S10.5 4 8 4.5 7.5 9 12 9zM12 9s1.5-5 4-4.5S16.5 9 12 9z" />
  </svg>
);
export const StarIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8L3.5 9.7l5.9-.9z" />
  </svg>
);
export const ListIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />
  </svg>
);
export const RocketIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M12 15l-3-3c1.5-5 5-8 10-8 0 5-3 8.5-8 10zM9 12H5l2.5-3.5H11M12 15v4l3.5-2.5V13" />
    <path d="M6.5 16.5c-1.5.5-2.5 3-2.5 3s2.5-1 3-2.5" />
  </svg>
);
export const ShieldIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M12 3l7.5 3v5.5c0 4.5-3.2 8-7.5 9.5-4.3-1.5-7.5-5-7.5-9.5V6z" />
    <path d="M8.5 12l2.5 2.5 4.5-5" />
  </svg>
);
export const CartGoIcon = (p: IconProps) => (
  <svg {...base(p)}>
    <path d="M3 4h2l2.2 10.5h10.6L20 7H6.3" />
    <circle cx="9" cy="19" r="1.4" />
    <circle cx="17" cy="19" r="1.4" />
  </svg>
);
