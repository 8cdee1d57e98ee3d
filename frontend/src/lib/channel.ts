/**
 * The channel the app runs in (spec ordering §1: wap 1, web 2, android 3, ios 4, wechat 5,
 * alipay 9, meal-voucher partner 30, mobile carrier 31, bank 37, harmony 46), sent as
 * `X-Channel-Id` on every API call, and the subchannel ORDER_QR of scan-to-order (spec account §1),
 * sent as `X-Sub-Channel-Code`. How it is decided: frontend/README.md "The channel".
 */
import type { ScanInput } from './api/types';
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
const known = (id: unknown): id is ChannelId => IDS.includes(id as number);

/** The spec's channel codes (account §1, "channel codes seen"): the partner SDS, the carrier LIANTONG, the banks CCB and BBC. */
const CODES: Record<string, ChannelId | undefined> = { WAP: 1, ANDROID: 3, IOS: 4, WECHAT: 5, ALI: 9, SDS: 30, LIANTONG: 31, CCB: 37, BBC: 37 };

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

/** The channel of a browser, from its user agent. */
export function detectChannel(userAgent: string): ChannelId {
  if (/MicroMessenger/i.test(userAgent)) return CHANNEL.wechat;
  if (/AlipayClient/i.test(userAgent)) return CHANNEL.alipay;
  if (/Mobi|Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony/i.test(userAgent)) return CHANNEL.wap;
  return CHANNEL.web;
}

/**
 * The app shell's channel: its bridge's platform, else its user agent's (the shells add
 * `PizzaApp/<version>`; an iPad's WebView says Macintosh, Harmony's may say Android too).
 */
function appChannel(ua: string, bridge: unknown): ChannelId | null {
  const platform = ['android', 'ios', 'harmony'].indexOf((bridge as { platform?: unknown } | null | undefined)?.platform as string);
  if (platform >= 0) return ([3, 4, 46] as const)[platform] ?? null;
  if (!/\bPizzaApp\//.test(ua)) return null;
  return /HarmonyOS|OpenHarmony/.test(ua) ? 46 : /iPhone|iPad|iPod|Macintosh/.test(ua) ? 4 : /Android/.test(ua) ? 3 : null;
}

/** A table QR link's query (storeName, storeCode, deskNo and sign, none empty), or null. */
export function readTableLink(query: URLSearchParams): ScanInput | null {
  const [storeName, storeCode, deskNo, sign] = ['storeName', 'storeCode', 'deskNo', 'sign'].map((k) => query.get(k)?.trim() ?? '');
  return storeName && storeCode && deskNo && sign ? { storeName, storeCode, deskNo, sign } : null;
}

/**
 * The channel, first found of: what the link names (`channelId`, else `channelCode`; a new one
 * wins), what a link named earlier this session, the app shell (bridge, then user agent), the
 * WeChat or Alipay browser, a phone's browser (wap) or a computer's (web). One the server does
 * not know is never chosen (it would refuse every call). The subchannel is ORDER_QR on a table
 * link and while its scan lasts.
 */
export function decideChannel({ search, userAgent, bridge, kept, scanLive }: ChannelClues): ChannelDecision {
  const query = new URLSearchParams(search);
  const id = query.get('channelId')?.trim() ?? '';
  const linked = /^\d+$/.test(id) && known(+id) ? (+id as ChannelId) : CODES[(query.get('channelCode') ?? '').trim().toUpperCase()];
  const named = linked ?? (known(kept) ? kept : null);
  return {
    channel: named ?? appChannel(userAgent, bridge) ?? detectChannel(userAgent),
    subChannel: scanLive || readTableLink(query) ? 'ORDER_QR' : null,
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
  const kept = sessionStore.get<number>(KEPT);
  const decision = decideChannel({
    search: window.location.search,
    userAgent: navigator.userAgent,
    bridge: (window as { PizzaApp?: unknown }).PizzaApp,
    kept,
    scanLive: scanLive(),
  });
  if (decision.named !== kept && decision.named !== null) sessionStore.set(KEPT, decision.named);
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
