import { describe, expect, it } from 'vitest';
import type { PayMethod } from '@/lib/api/types';
import { payFamilies } from './payFamilies';

describe('payFamilies: what "online payment" promises is what the channel offers', () => {
  const table: [string, PayMethod[], string[]][] = [
    ['a browser (wap, web, 30, 31)', ['alipay_wap', 'wechat_h5', 'unionpay_web'], ['wechat', 'alipay', 'bank']],
    ['WeChat', ['wechat_jsapi'], ['wechat']],
    ['Alipay', ['alipay_wap'], ['alipay']],
    ['the bank channel 37', ['unionpay_web', 'ccb', 'bbc'], ['bank']],
    ['the apps', ['alipay_app', 'wechat_app', 'unionpay_app'], ['wechat', 'alipay', 'bank']],
    ['nothing online', [], []],
  ];
  it.each(table)('%s', (_what, methods, families) => {
    expect(payFamilies(methods)).toEqual(families);
  });
});
