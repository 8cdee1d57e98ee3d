import { describe, expect, it } from 'vitest';
import { refundedAttempts, refundStateKey } from './refunds';

describe('refunds', () => {
  it('lists the attempts whose money goes back, in order', () => {
    const payments = [
      { paymentId: 'P1', state: 'refunded', method: 'alipay_wap', amount: 85.2, refundReason: '重复支付', refundState: null },
      { paymentId: 'P2', state: 'paid', method: 'wechat_h5', amount: 85.2, refundReason: null, refundState: null },
      { paymentId: 'P3', state: 'refunding', method: 'alipay_wap', amount: 85.2, refundReason: '重复支付', refundState: null },
      { paymentId: 'P4', state: 'closed', method: 'alipay_wap', amount: 93.2, refundReason: null, refundState: null },
    ];
    expect(refundedAttempts({ payments }).map((p) => p.paymentId)).toEqual(['P1', 'P3']);
    expect(refundedAttempts({ payments: [] })).toEqual([]);
    const [first, , third] = payments;
    expect(first && refundStateKey(first)).toBe('order.refunds.refunded');
    expect(third && refundStateKey(third)).toBe('order.refunds.refunding');
  });
});
