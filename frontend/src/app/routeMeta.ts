import type { MessageKey } from '@/lib/i18n';

/** Route metadata (spec: level for slide direction, title, page code). */
export interface RouteMeta {
  level: number;
  title: MessageKey | null;
  pageCode: string;
  /** The page sets the document title itself (its words come with its chunk). */
  ownTitle?: boolean;
}

export function routeMeta(pathname: string): RouteMeta {
  if (pathname === '/') return { level: 1, title: null, pageCode: 'index' };
  if (pathname === '/menu') return { level: 2, title: 'menu.title', pageCode: 'menu' };
  if (pathname === '/findStore') return { level: 2, title: 'store.title', pageCode: 'findStore' };
  if (pathname === '/product/search') return { level: 3, title: 'search.title', pageCode: 'search' };
  if (pathname.startsWith('/product/')) return { level: 3, title: 'menu.title', pageCode: 'productInfo' };
  if (pathname === '/order/submit') return { level: 3, title: 'checkout.title', pageCode: 'orderSubmit' };
  if (pathname === '/order/status') return { level: 4, title: 'order.status.title', pageCode: 'orderStatus' };
  if (pathname === '/order') return { level: 2, title: 'order.list.title', pageCode: 'orderList' };
  if (pathname === '/order/info') return { level: 3, title: 'order.info.title', pageCode: 'orderInfo' };
  if (pathname === '/order/oneMoreOrder') return { level: 3, title: 'order.again', pageCode: 'oneMoreOrder' };
  if (pathname === '/order/comment') return { level: 4, title: 'order.comment.title', pageCode: 'orderComment' };
  if (isMemberPath(pathname)) {
    const code = pathname.slice(pathname.lastIndexOf('/') + 1);
    return { level: code === 'index' || code === 'addMember' ? 3 : 4, title: null, pageCode: code, ownTitle: true };
  }
  const account = ACCOUNT[pathname];
  if (account) return account;
  return { level: 1, title: null, pageCode: '' };
}

const ACCOUNT: Record<string, RouteMeta> = {
  '/login': { level: 2, title: 'account.login.title', pageCode: 'login' },
  '/register': { level: 3, title: 'account.register.title', pageCode: 'register' },
  '/resetPassword': { level: 3, title: 'account.reset.title', pageCode: 'resetPassword' },
  '/system/privacyProtocol': { level: 4, title: 'privacy.title', pageCode: 'privacyProtocol' },
  '/system/userProtocol': { level: 4, title: 'agreement.title', pageCode: 'userProtocol' },
  '/my': { level: 2, title: 'my.title', pageCode: 'my' },
  '/my/personalInfo': { level: 3, title: 'info.title', pageCode: 'personalInfo' },
  '/my/personalInfo/updateUserInfo': { level: 4, title: 'info.updateTitle', pageCode: 'updateUserInfo' },
  '/my/personalInfo/updatePassword': { level: 4, title: 'password.title', pageCode: 'updatePassword' },
  '/my/personalInfo/cancellation': { level: 4, title: 'cancel.title', pageCode: 'cancellation' },
  '/my/coupon/list': { level: 3, title: 'nav.coupons', pageCode: 'couponList' },
  '/address': { level: 3, title: 'address.title', pageCode: 'address' },
  '/address/select': { level: 3, title: 'address.selectTitle', pageCode: 'selectAddress' },
  '/selectAddress': { level: 3, title: 'address.selectTitle', pageCode: 'selectAddress' },
  '/address/add': { level: 4, title: 'address.addTitle', pageCode: 'addAddress' },
  '/address/update': { level: 4, title: 'address.editTitle', pageCode: 'updateAddress' },
};

/** The member pages (issue 23): /addMember, /my/member/…, /my/integral/list, /memberPointdeduction. */
function isMemberPath(pathname: string): boolean {
  return pathname.startsWith('/my/member/') || pathname === '/addMember' || pathname === '/my/integral/list' || pathname === '/memberPointdeduction';
}
