/**
 * The channel the app runs in (spec ordering §1: wap 1, web 2, android 3, ios 4, wechat 5,
 * alipay 9, meal-voucher partner 30, mobile carrier 31, bank 37, harmony 46), sent as
 * `X-Channel-Id`. The web build knows only the browsers: the messaging app's in-app browser is
 * the wechat channel, the payment app's browser the alipay one, a phone's or tablet's browser
 * wap, anything else (a computer's) web.
 */
export const CHANNEL = {
  wap: 1,
  web: 2,
  android: 3,
  ios: 4,
  wechat: 5,
  alipay: 9,
  mealVoucher: 30,
  carrier: 31,
  bank: 37,
  harmony: 46,
} as const;

export type ChannelId = (typeof CHANNEL)[keyof typeof CHANNEL];

/** The channel of a browser, from its user agent. */
export function detectChannel(userAgent: string): ChannelId {
  if (/MicroMessenger/i.test(userAgent)) return CHANNEL.wechat;
  if (/AlipayClient/i.test(userAgent)) return CHANNEL.alipay;
  if (/Mobi|Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony/i.test(userAgent)) return CHANNEL.wap;
  return CHANNEL.web;
}

let cached: ChannelId | null = null;

/** This page's channel (read once). */
export function currentChannel(): ChannelId {
  if (cached === null) cached = detectChannel(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  return cached;
}

/** Coupons exist in every channel but the meal-voucher partner's (spec ordering §6): its nav entry, page and checkout row go. */
export function showsCoupons(channel: ChannelId = currentChannel()): boolean {
  return channel !== CHANNEL.mealVoucher;
}
