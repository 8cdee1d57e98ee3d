import { describe, expect, it } from 'vitest';
import { CHANNEL } from '@/lib/channel';
import { PAY_METHODS, methodAllowed, onlineMethodsFor, payMethodsFor } from './methods';

describe('channel → methods', () => {
  it('web offers Alipay, WeChat Pay and UnionPay web (Alipay first: the default)', () => {
    expect(onlineMethodsFor(CHANNEL.web)).toEqual(['alipay_wap', 'wechat_h5', 'unionpay_web']);
    expect(payMethodsFor(CHANNEL.web)).toEqual(['alipay_wap', 'wechat_h5', 'unionpay_web', 'offline']);
  });
  it("WeChat's browser offers only WeChat's official-account pay", () => {
    expect(onlineMethodsFor(CHANNEL.wechat)).toEqual(['wechat_jsapi']);
  });
  it('the apps offer the SDK methods', () => {
    for (const c of [CHANNEL.android, CHANNEL.ios, CHANNEL.harmony]) {
      expect(onlineMethodsFor(c)).toEqual(['alipay_app', 'wechat_app', 'unionpay_app']);
    }
  });
  it('the other channels, as the server table has them', () => {
    expect(onlineMethodsFor(CHANNEL.wap)).toEqual(['alipay_wap', 'wechat_h5', 'unionpay_web']);
    expect(onlineMethodsFor(CHANNEL.alipay)).toEqual(['alipay_wap']);
    expect(onlineMethodsFor(CHANNEL.mealVoucher)).toEqual(['alipay_wap', 'wechat_h5', 'unionpay_web']);
    expect(onlineMethodsFor(CHANNEL.carrier)).toEqual(['alipay_wap', 'wechat_h5', 'unionpay_web']);
    expect(onlineMethodsFor(CHANNEL.bank)).toEqual(['unionpay_web', 'ccb', 'bbc']);
  });
  it('pay on delivery is open everywhere; an unknown channel gets nothing else', () => {
    for (const c of Object.values(CHANNEL)) expect(methodAllowed('offline', c)).toBe(true);
    expect(payMethodsFor(77)).toEqual(['offline']);
  });
  it('every method belongs to some channel', () => {
    for (const m of PAY_METHODS) expect(Object.values(CHANNEL).some((c) => methodAllowed(m, c))).toBe(true);
  });
});
