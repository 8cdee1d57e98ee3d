import { describe, expect, it } from 'vitest';
import { CHANNEL, currentChannel, detectChannel } from './channel';

describe('detectChannel', () => {
  it('knows the WeChat and Alipay browsers, phones and tablets (wap), and calls anything else web', () => {
    expect(detectChannel('Mozilla/5.0 (iPhone) AppleWebKit Mobile MicroMessenger/8.0.47 NetType/WIFI')).toBe(CHANNEL.wechat);
    expect(detectChannel('Mozilla/5.0 (Linux; Android 13) AlipayClient/10.5.0')).toBe(CHANNEL.alipay);
    expect(detectChannel('Mozilla/5.0 (X11; Linux x86_64) Chrome/130 Safari/537.36')).toBe(CHANNEL.web);
    expect(detectChannel('')).toBe(CHANNEL.web);
    // A phone browser is wap 1, not web 2 (issue 22).
    expect(detectChannel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1')).toBe(CHANNEL.wap);
    expect(detectChannel('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36')).toBe(CHANNEL.wap);
    expect(detectChannel('Mozilla/5.0 (Linux; Android 13; HarmonyOS; NOH-AN00) AppleWebKit/537.36 Chrome/114 Mobile Safari/537.36')).toBe(CHANNEL.wap);
    expect(detectChannel('Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe(CHANNEL.wap);
    // In WeChat or Alipay on a phone, the wallet's channel wins.
    expect(detectChannel('Mozilla/5.0 (Linux; Android 14) Mobile Safari MicroMessenger/8.0')).toBe(CHANNEL.wechat);
    expect(detectChannel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130 Safari/537.36')).toBe(CHANNEL.web);
  });
  it('this page (jsdom) is web', () => {
    expect(currentChannel()).toBe(2);
  });
});
