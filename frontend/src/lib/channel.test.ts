import { describe, expect, it } from 'vitest';
import { CHANNEL, currentChannel, detectChannel } from './channel';

describe('detectChannel', () => {
  it('knows the WeChat and Alipay browsers, and calls anything else web', () => {
    expect(detectChannel('Mozilla/5.0 (iPhone) AppleWebKit Mobile MicroMessenger/8.0.47 NetType/WIFI')).toBe(CHANNEL.wechat);
    expect(detectChannel('Mozilla/5.0 (Linux; Android 13) AlipayClient/10.5.0')).toBe(CHANNEL.alipay);
    expect(detectChannel('Mozilla/5.0 (X11; Linux x86_64) Chrome/130 Safari/537.36')).toBe(CHANNEL.web);
    expect(detectChannel('')).toBe(CHANNEL.web);
  });
  it('this page (jsdom) is web', () => {
    expect(currentChannel()).toBe(2);
  });
});
