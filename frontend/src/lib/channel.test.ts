import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL, channelHeaders, currentChannel, decideChannel, detectChannel, setScanModeGetter, type ChannelClues } from './channel';

const UA = {
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36',
  wechat: 'Mozilla/5.0 (iPhone) AppleWebKit Mobile MicroMessenger/8.0.47 NetType/WIFI',
  alipay: 'Mozilla/5.0 (Linux; Android 13) AlipayClient/10.5.0',
  appAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36 PizzaApp/3.1.0',
  appIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 PizzaApp/3.1.0',
  appIpad: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Mobile/15E148 PizzaApp/3.1.0',
  appHarmony: 'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 Chrome/114 Mobile Safari/537.36 ArkWeb/4.1 PizzaApp/3.1.0',
  appHarmonyCompat: 'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00) AppleWebKit/537.36 Chrome/114 Mobile Safari/537.36 PizzaApp/3.1.0',
};

const TABLE_LINK = '?storeName=%E4%BA%BA%E6%B0%91%E5%B9%BF%E5%9C%BA&storeCode=SH001&deskNo=A12&sign=abc';

const clues = (over: Partial<ChannelClues>): ChannelClues => ({ search: '', userAgent: UA.desktop, bridge: undefined, kept: null, scanLive: false, ...over });

describe('decideChannel', () => {
  // [what, clues, channel, subChannel, named (kept for the session)]
  const table: [string, Partial<ChannelClues>, number, string | null, number | null][] = [
    // The browsers, by user agent (issue 22).
    ['a computer', {}, 2, null, null],
    ['a phone browser', { userAgent: UA.iphone }, 1, null, null],
    ['an Android phone browser', { userAgent: UA.android }, 1, null, null],
    ['WeChat', { userAgent: UA.wechat }, 5, null, null],
    ['Alipay', { userAgent: UA.alipay }, 9, null, null],
    // The app's shells: their user agent names the app; the platform tells which app.
    ['the Android app', { userAgent: UA.appAndroid }, 3, null, null],
    ['the iOS app', { userAgent: UA.appIos }, 4, null, null],
    ['the iOS app on an iPad (a desktop user agent)', { userAgent: UA.appIpad }, 4, null, null],
    ['the Harmony app', { userAgent: UA.appHarmony }, 46, null, null],
    ['the Harmony app with an Android-compatible user agent', { userAgent: UA.appHarmonyCompat }, 46, null, null],
    // The bridge the shells inject says the platform, whatever the user agent.
    ['the bridge: android', { bridge: { platform: 'android' } }, 3, null, null],
    ['the bridge: ios', { userAgent: UA.iphone, bridge: { platform: 'ios' } }, 4, null, null],
    ['the bridge: harmony', { userAgent: UA.android, bridge: { platform: 'harmony' } }, 46, null, null],
    ['the bridge beats the UA', { userAgent: UA.appAndroid, bridge: { platform: 'harmony' } }, 46, null, null],
    ['a bridge without a known platform is no app', { userAgent: UA.iphone, bridge: { platform: 'symbian' } }, 1, null, null],
    ['a bridge that is not an object is no app', { bridge: 'android' }, 2, null, null],
    ['a bridge naming what every object has is no app', { bridge: { platform: 'constructor' } }, 2, null, null],
    ['a null bridge is no app', { bridge: null, userAgent: UA.android }, 1, null, null],
    ['a channelCode naming what every object has is none', { search: '?channelCode=constructor' }, 2, null, null],
    ['a channelId in another notation is none', { search: '?channelId=0x1e' }, 2, null, null],
    // A link names the channel (spec account §1 request fields): channelId or channelCode.
    ['channelId 30, the meal-voucher partner', { search: '?channelId=30' }, 30, null, 30],
    ['channelId 37 in a phone browser', { search: '?channelId=37', userAgent: UA.iphone }, 37, null, 37],
    ['channelId 31', { search: '?channelId=31' }, 31, null, 31],
    ['channelId 46', { search: '?channelId=46' }, 46, null, 46],
    ['channelId with spaces', { search: '?channelId=%2030%20' }, 30, null, 30],
    ['channelCode SDS (the meal-voucher partner)', { search: '?channelCode=SDS' }, 30, null, 30],
    ['channelCode CCB (bank)', { search: '?channelCode=CCB' }, 37, null, 37],
    ['channelCode bbc, any case (bank)', { search: '?channelCode=bbc' }, 37, null, 37],
    ['channelCode LIANTONG (carrier)', { search: '?channelCode=LIANTONG' }, 31, null, 31],
    ['channelCode ANDROID', { search: '?channelCode=ANDROID' }, 3, null, 3],
    ['channelCode IOS', { search: '?channelCode=IOS' }, 4, null, 4],
    ['channelCode WECHAT', { search: '?channelCode=WECHAT' }, 5, null, 5],
    ['channelCode ALI', { search: '?channelCode=ALI' }, 9, null, 9],
    ['channelCode WAP', { search: '?channelCode=WAP' }, 1, null, 1],
    ['channelId beats channelCode', { search: '?channelCode=CCB&channelId=30' }, 30, null, 30],
    ['the link beats the WeChat browser', { search: '?channelId=30', userAgent: UA.wechat }, 30, null, 30],
    ['the link beats the app', { search: '?channelId=37', bridge: { platform: 'ios' } }, 37, null, 37],
    // A channel the server does not know is never sent (it would refuse every call with 400).
    ['an unknown channelId is ignored', { search: '?channelId=99', userAgent: UA.iphone }, 1, null, null],
    ['a channelId that is no number is ignored', { search: '?channelId=web' }, 2, null, null],
    ['an unknown channelCode is ignored', { search: '?channelCode=NOPE', userAgent: UA.wechat }, 5, null, null],
    ['an empty channelId is ignored', { search: '?channelId=', kept: 30 }, 30, null, 30],
    // Kept for the session: a later page without the parameter keeps it; a new parameter wins.
    ['kept 30, no parameter', { kept: 30 }, 30, null, 30],
    ['kept 30 beats the WeChat browser', { kept: 30, userAgent: UA.wechat }, 30, null, 30],
    ['kept 37 beats the app', { kept: 37, bridge: { platform: 'android' } }, 37, null, 37],
    ['a new parameter beats what was kept', { kept: 30, search: '?channelId=37' }, 37, null, 37],
    ['a kept channel the server does not know is dropped', { kept: 99 as number, userAgent: UA.alipay }, 9, null, null],
    // Scan-to-order: a table link, or a live scan, is the subchannel ORDER_QR (spec account §1).
    ['a table link', { search: TABLE_LINK }, 2, 'ORDER_QR', null],
    ['a table link in WeChat', { search: TABLE_LINK, userAgent: UA.wechat }, 5, 'ORDER_QR', null],
    ['a table link naming the channel', { search: `${TABLE_LINK}&channelId=30` }, 30, 'ORDER_QR', 30],
    ['a live scan after the link is gone', { scanLive: true, kept: 37 }, 37, 'ORDER_QR', 37],
    ['half a table link is none', { search: '?storeCode=SH001&deskNo=A12' }, 2, null, null],
    ['a table link with an empty sign is none', { search: '?storeName=a&storeCode=SH001&deskNo=A12&sign=' }, 2, null, null],
  ];
  it.each(table)('%s', (_what, over, channel, subChannel, named) => {
    expect(decideChannel(clues(over))).toEqual({ channel, subChannel, named });
  });
});

describe('detectChannel (the browser alone)', () => {
  it('knows the WeChat and Alipay browsers, phones and tablets (wap), and calls anything else web', () => {
    expect(detectChannel(UA.wechat)).toBe(CHANNEL.wechat);
    expect(detectChannel(UA.alipay)).toBe(CHANNEL.alipay);
    expect(detectChannel('Mozilla/5.0 (X11; Linux x86_64) Chrome/130 Safari/537.36')).toBe(CHANNEL.web);
    expect(detectChannel('')).toBe(CHANNEL.web);
    // A phone browser is wap 1, not web 2 (issue 22).
    expect(detectChannel(UA.iphone)).toBe(CHANNEL.wap);
    expect(detectChannel(UA.android)).toBe(CHANNEL.wap);
    expect(detectChannel('Mozilla/5.0 (Linux; Android 13; HarmonyOS; NOH-AN00) AppleWebKit/537.36 Chrome/114 Mobile Safari/537.36')).toBe(CHANNEL.wap);
    expect(detectChannel('Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe(CHANNEL.wap);
    // In WeChat or Alipay on a phone, the wallet's channel wins.
    expect(detectChannel('Mozilla/5.0 (Linux; Android 14) Mobile Safari MicroMessenger/8.0')).toBe(CHANNEL.wechat);
    expect(detectChannel(UA.desktop)).toBe(CHANNEL.web);
  });
});

describe('this page', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
    setScanModeGetter(null);
  });

  it('is web in jsdom', () => {
    expect(currentChannel()).toBe(2);
    expect(channelHeaders()).toEqual({ 'X-Channel-Id': '2' });
  });

  it('keeps the channel a link named for the session, until a new link names another', () => {
    window.history.replaceState(null, '', '/?channelId=30');
    expect(currentChannel()).toBe(30);
    window.history.replaceState(null, '', '/menu');
    expect(currentChannel()).toBe(30);
    expect(channelHeaders()['X-Channel-Id']).toBe('30');
    window.history.replaceState(null, '', '/?channelCode=CCB');
    expect(currentChannel()).toBe(37);
    window.history.replaceState(null, '', '/order');
    expect(currentChannel()).toBe(37);
    window.sessionStorage.clear();
    expect(currentChannel()).toBe(2);
  });

  it('sends the subchannel ORDER_QR on a table link and while the scan lasts', () => {
    window.history.replaceState(null, '', `/menu${TABLE_LINK}`);
    expect(channelHeaders()).toEqual({ 'X-Channel-Id': '2', 'X-Sub-Channel-Code': 'ORDER_QR' });
    window.history.replaceState(null, '', '/menu');
    expect(channelHeaders()).toEqual({ 'X-Channel-Id': '2' });
    let live = true;
    setScanModeGetter(() => live);
    expect(channelHeaders()).toEqual({ 'X-Channel-Id': '2', 'X-Sub-Channel-Code': 'ORDER_QR' });
    live = false;
    expect(channelHeaders()).toEqual({ 'X-Channel-Id': '2' });
  });
});
