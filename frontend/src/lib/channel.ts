/**
 * The channel the app runs in (spec ordering §1: wap 1, web 2, android 3, ios 4, wechat 5,
 * alipay 9, meal-voucher partner 30, mobile carrier 31, bank 37, harmony 46), sent as
 * `X-Channel-Id` on every API call, and the subchannel ORDER_QR of scan-to-order (spec account §1),
 * sent as `X-Sub-Channel-Code`. How it is decided: frontend/README.md "The channel".
 */
import { sessionStore } from './storage';

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
export type SubChannel = 'ORDER_QR';

const IDS: readonly number[] = Object.values(CHANNEL);
const known = (id: number | null | undefined): id is ChannelId => id != null && IDS.includes(id);

/** The spec's channel codes (account §1, "channel codes seen"): the partner SDS, the carrier LIANTONG, the banks CCB and BBC. */
const CODES: Record<string, ChannelId> = {
  WAP: 1,
  ANDROID: 3,
  IOS: 4,
  WECHAT: 5,
  ALI: 9,
  SDS: 30,
  LIANTONG: 31,
  CCB: 37,
  BBC: 37,
};

/** The token the app's shells add to their WebView's user agent (`PizzaApp/<version>`). */
const APP_UA = /\bPizzaApp\//;
const PLATFORMS: Record<string, ChannelId> = { android: 3, ios: 4, harmony: 46 };

/** What the page knows of where it runs; `decideChannel` turns it into the channel. */
export interface ChannelClues {
  /** The page's query string (`?channelId=30`). */
  search: string;
  userAgent: string;
  /** The app shell's bridge, `window.PizzaApp` (`{platform: 'android' | 'ios' | 'harmony'}`), when there is one. */
  bridge: unknown;
  /** The channel a link named earlier in this session (sessionStorage), unchecked. */
  kept: number | null;
  /** A scan-to-order table is in effect (the scanned store's 3600 s). */
  scanLive: boolean;
}

export interface ChannelDecision {
  channel: ChannelId;
  subChannel: SubChannel | null;
  /** The channel a link named (this page's or an earlier one's), to keep for the session. */
  named: ChannelId | null;
}

/** The channel a link names: `channelId` (a known id), else `channelCode` (a spec code). */
function linkChannel(query: URLSearchParams): ChannelId | null {
  const id = query.get('channelId')?.trim();
  if (id && /^\d+$/.test(id) && known(Number(id))) return Number(id) as ChannelId;
  return CODES[query.get('channelCode')?.trim().toUpperCase() ?? ''] ?? null;
}

/** The app shell's channel: its bridge's platform, else its user agent's. */
function appChannel(userAgent: string, bridge: unknown): ChannelId | null {
  const platform = typeof bridge === 'object' && bridge !== null ? (bridge as { platform?: unknown }).platform : undefined;
  if (typeof platform === 'string' && PLATFORMS[platform]) return PLATFORMS[platform];
  if (!APP_UA.test(userAgent)) return null;
  if (/HarmonyOS|OpenHarmony/i.test(userAgent)) return CHANNEL.harmony;
  if (/iPhone|iPad|iPod|Macintosh/i.test(userAgent)) return CHANNEL.ios;
  if (/Android/i.test(userAgent)) return CHANNEL.android;
  return null;
}

/** The channel of a browser, from its user agent. */
export function detectChannel(userAgent: string): ChannelId {
  if (/MicroMessenger/i.test(userAgent)) return CHANNEL.wechat;
  if (/AlipayClient/i.test(userAgent)) return CHANNEL.alipay;
  if (/Mobi|Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony/i.test(userAgent)) return CHANNEL.wap;
  return CHANNEL.web;
}

/** A table QR link: storeName, storeCode, deskNo and sign, none empty (as app/routes/scanEntry reads it). */
const isTableLink = (query: URLSearchParams) => ['storeName', 'storeCode', 'deskNo', 'sign'].every((k) => !!query.get(k)?.trim());

/**
 * The channel, first found of: what the link names (a new one wins), what a link named earlier
 * this session, the app shell (bridge, then user agent), the WeChat or Alipay browser, a phone's
 * browser (wap) or a computer's (web). The subchannel is ORDER_QR on a table link and while its
 * scan lasts.
 */
export function decideChannel(c: ChannelClues): ChannelDecision {
  const query = new URLSearchParams(c.search);
  const named = linkChannel(query) ?? (known(c.kept) ? c.kept : null);
  return {
    channel: named ?? appChannel(c.userAgent, c.bridge) ?? detectChannel(c.userAgent),
    subChannel: c.scanLive || isTableLink(query) ? 'ORDER_QR' : null,
    named,
  };
}

const KEPT = 'channel';
let scanLive: () => boolean = () => false;

/** Whether a scan-to-order table is in effect: set by the app layer (lib knows no store). */
export function setScanModeGetter(getter: (() => boolean) | null): void {
  scanLive = getter ?? (() => false);
}

/** This page's channel now; a channel the link names is kept for the session. */
export function currentDecision(): ChannelDecision {
  const inBrowser = typeof window !== 'undefined';
  const decision = decideChannel({
    search: inBrowser ? window.location.search : '',
    userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
    bridge: inBrowser ? (window as { PizzaApp?: unknown }).PizzaApp : undefined,
    kept: sessionStore.get<number>(KEPT),
    scanLive: scanLive(),
  });
  if (decision.named !== null && sessionStore.get<number>(KEPT) !== decision.named) sessionStore.set(KEPT, decision.named);
  return decision;
}

export function currentChannel(): ChannelId {
  return currentDecision().channel;
}

/** The request context headers of the channel. */
export function channelHeaders(): Record<string, string> {
  const { channel, subChannel } = currentDecision();
  return subChannel ? { 'X-Channel-Id': String(channel), 'X-Sub-Channel-Code': subChannel } : { 'X-Channel-Id': String(channel) };
}

/** Coupons exist in every channel but the meal-voucher partner's (spec ordering §6): its nav entry, page and checkout row go. */
export function showsCoupons(channel: ChannelId = currentChannel()): boolean {
  return channel !== CHANNEL.mealVoucher;
}
