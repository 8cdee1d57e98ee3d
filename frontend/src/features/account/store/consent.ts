/**
 * Privacy refusal is remembered for the browser session only (spec account §4), and the SMS
 * dialog shows at most once per login session.
 */
import { sessionStore } from '@/lib/storage';

const CANCEL_KEY = 'privacy:cancel';
const MKT_KEY = 'mkt:shown';

export function privacyRefused(): boolean {
  return sessionStore.get<boolean>(CANCEL_KEY) === true;
}

export function setPrivacyRefused(refused: boolean): void {
  if (refused) sessionStore.set(CANCEL_KEY, true);
  else sessionStore.remove(CANCEL_KEY);
}

export function marketingShown(userId: number): boolean {
  return sessionStore.get<number>(MKT_KEY) === userId;
}

export function setMarketingShown(userId: number | null): void {
  if (userId === null) sessionStore.remove(MKT_KEY);
  else sessionStore.set(MKT_KEY, userId);
}

/**
 * Where the SMS / personalised-marketing question may be asked (issue 22): never in the middle of
 * ordering (checkout, paying, the menu), only after an order (its status and detail pages) or on
 * the customer's own page. Elsewhere the question waits until one of these is reached.
 */
const MARKETING_PAGES = ['/my', '/order/status', '/order/info'];
export function marketingMayAsk(pathname: string): boolean {
  return MARKETING_PAGES.includes(pathname);
}
