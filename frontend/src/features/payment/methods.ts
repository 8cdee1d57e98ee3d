/**
 * Which payment methods the user's channel offers (`X-Channel-Id`). The spec does not give the
 * table; this mirrors the server's (actors `PayMethod::allowed_in`, docs/payments-and-orders.md):
 * SDK methods need the native app, WeChat's official-account pay (JSAPI) works only inside the
 * WeChat browser and Alipay pages are blocked there, WeChat H5 pay is for phone browsers outside
 * WeChat (a phone's browser opens WeChat; on a computer the provider's page shows a code to scan),
 * the bank methods belong to the bank channel, pay on delivery is open everywhere. So: WeChat Pay
 * only inside WeChat, Alipay only inside Alipay, both in a phone's (wap) or a computer's (web) browser.
 *
 * | method | 1 wap | 2 web | 3 android | 4 ios | 5 wechat | 9 alipay | 30 voucher | 31 carrier | 37 bank | 46 harmony |
 * |---|---|---|---|---|---|---|---|---|---|---|
 * | alipay_wap | ✓ | ✓ | | | | ✓ | ✓ | ✓ | | |
 * | alipay_app | | | ✓ | ✓ | | | | | | ✓ |
 * | wechat_app | | | ✓ | ✓ | | | | | | ✓ |
 * | wechat_h5 | ✓ | ✓ | | | | | ✓ | ✓ | | |
 * | wechat_jsapi | | | | | ✓ | | | | | |
 * | unionpay_app | | | ✓ | ✓ | | | | | | ✓ |
 * | unionpay_web | ✓ | ✓ | | | | | ✓ | ✓ | ✓ | |
 * | ccb | | | | | | | | | ✓ | |
 * | bbc | | | | | | | | | ✓ | |
 * | offline | every channel |
 */
import { CHANNEL } from '@/lib/channel';
import type { PayMethod } from '@/lib/api/types';

const { wap, web, android, ios, wechat, alipay, mealVoucher, carrier, bank, harmony } = CHANNEL;
const among =
  (...channels: number[]) =>
  (channel: number): boolean =>
    channels.includes(channel);

/** Every method, in the server's order (the first one a channel offers is its default). */
export const PAY_METHODS: readonly PayMethod[] = [
  'alipay_wap',
  'alipay_app',
  'wechat_app',
  'wechat_h5',
  'wechat_jsapi',
  'unionpay_app',
  'unionpay_web',
  'ccb',
  'bbc',
  'offline',
];

const ALLOWED: Record<PayMethod, (channel: number) => boolean> = {
  alipay_wap: among(wap, web, alipay, mealVoucher, carrier),
  alipay_app: among(android, ios, harmony),
  wechat_app: among(android, ios, harmony),
  wechat_h5: among(wap, web, mealVoucher, carrier),
  wechat_jsapi: among(wechat),
  unionpay_app: among(android, ios, harmony),
  unionpay_web: among(wap, web, mealVoucher, carrier, bank),
  ccb: among(bank),
  bbc: among(bank),
  offline: () => true,
};

/** Whether the server takes `method` from `channel`. */
export function methodAllowed(method: PayMethod, channel: number): boolean {
  return ALLOWED[method](channel);
}

/** The methods of a channel, pay on delivery included (the server's `available_in`). */
export function payMethodsFor(channel: number): PayMethod[] {
  return PAY_METHODS.filter((m) => methodAllowed(m, channel));
}

/** The online methods the checkout offers in a channel (pay on delivery is the other payment type). */
export function onlineMethodsFor(channel: number): PayMethod[] {
  return payMethodsFor(channel).filter((m) => m !== 'offline');
}
