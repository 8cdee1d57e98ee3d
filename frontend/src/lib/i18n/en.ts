import type { FirstScreenKey } from './zh';

/** English words of the first screen (zh.ts's keys). Any key left out falls back to Chinese. */
export const en: Partial<Record<FirstScreenKey, string>> = {
  'app.name': 'Pizza Dash',
  'app.slogan': 'Delivered in 30 minutes, or your next pizza is on us',

  'common.retry': 'Reload',
  'common.confirm': 'OK',
  'common.cancel': 'Cancel',
  'common.loading': 'Loading...',
  'common.close': 'Close',
  'common.from': 'from {price}',
  'chunk.failed': 'This page could not be loaded. Check your connection and reload.',

  'lang.switchTo': '中文',

  'err.network': 'Network error, please try again later!',
  'err.server': 'Server error, please try again later!',
  'err.busy': 'The server is busy, please try again later~',
  'err.offline': 'You are offline, please check your network!',
  'err.illegal': 'Illegal request',
  'err.sessionExpired': 'Session expired!',
  'err.loginRequired': 'Not logged in',

  'conn.reconnecting': 'Reconnecting…',
  'conn.offline': 'You are offline, please check your network!',
  'conn.stopped': 'Live updates stopped',
  'conn.retry': 'Retry',

  'home.greeting': 'What are you craving today?',
  'home.startTitle': 'Start your order',
  'home.delivery': 'Delivery',
  'home.deliveryDesc': 'At your door in 30 min',
  'home.pickup': 'Pickup',
  'home.pickupDesc': 'Order ahead, collect in store',
  'home.currentStore': 'Your store',
  'home.noStore': 'No store chosen yet',
  'home.chooseStore': 'Choose a store',
  'home.browseMenu': 'Browse the menu',
  'home.openNav': 'Open navigation',
  'home.banner': 'Offer {n}',
  'home.picks': 'Popular picks',
  'home.fullMenu': 'Full menu',

  'nav.title': 'Navigation',
  'nav.home': 'Home',
  'nav.menu': 'Menu',
  'nav.findStore': 'Find a store',
  'nav.search': 'Search products',
  'nav.orders': 'My orders',
  'nav.coupons': 'My coupons',
  'nav.my': 'My account',
  'nav.guest': 'Guest',
  'nav.guestHint': 'Log in to see your orders and coupons',
  'nav.guestHintNoCoupons': 'Log in to see your orders',

  'menu.title': 'Menu',

  'store.status.open': 'Open',
  'store.status.busy': 'Busy',
  'store.status.closed': 'Closed',

  'search.title': 'Search',

  'store.title': 'Choose a store',

  'nav.hello': 'Hi, {name}',
  'nav.userHint': 'Open my account',
  'nav.login': 'Log in / Sign up',
  'home.login': 'Log in',
  'home.account': 'Me',
  'account.login.title': 'Log in',
  'account.privacyPolicy': 'Privacy Policy',
  'account.register.title': 'Sign up',
  'account.reset.title': 'Reset password',
  'my.title': 'My account',
  'info.title': 'Personal info',
  'info.updateTitle': 'Complete profile',
  'password.title': 'Change password',
  'cancel.title': 'Close account',
  'privacy.title': 'Privacy Policy',
  'agreement.title': 'User Agreement',
  'address.title': 'My addresses',
  'address.selectTitle': 'Choose an address',
  'address.addTitle': 'Add address',
  'address.editTitle': 'Edit address',

  'checkout.title': 'Confirm order',

  'order.status.title': 'Order status',
  'order.info.title': 'Order details',
  'order.list.title': 'My orders',
  'order.again': 'Order again',
  'order.comment.title': 'Rate your order',

  'tablet.title': 'Store orders',

};
