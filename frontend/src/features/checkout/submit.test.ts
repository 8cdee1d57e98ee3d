import { describe, expect, it } from 'vitest';
import { makeAddress, makeCart } from '@/test/fixtures';
import { buildOrder, cleanRemark, IdempotencyKeys, paymentTypesFor, type CheckoutChoices } from './submit';

const choices: CheckoutChoices = { address: makeAddress(), remark: '少放辣', contactless: true, tableware: 2, invoice: false, paymentType: 'offline' };

describe('cleanRemark (spec ordering §5)', () => {
  it('strips separators and dollar signs, makes commas full-width, trims and cuts', () => {
    expect(cleanRemark(' 少放辣,多放芝士 $5 | 谢谢 ')).toBe('少放辣，多放芝士 5 谢谢');
    expect(cleanRemark('a\nb')).toBe('a b');
    expect(Array.from(cleanRemark('比'.repeat(130)))).toHaveLength(100);
  });
});

describe('buildOrder', () => {
  it('carries the four amounts and the version of the cart shown, and the delivery address contact', () => {
    const cart = makeCart({ isBookOrder: true, orderTime: 1795408200000 });
    expect(buildOrder(cart, choices)).toEqual({
      orderType: 0,
      isBookOrder: true,
      plannedDeliverTime: 1795408200000,
      consignAddressId: 7,
      receiverName: '张三',
      receiverMobile: '13812345678',
      deskNo: null,
      remark: '少放辣',
      contactless: true,
      tableware: 2,
      isNeedInvoice: false,
      paymentType: 'offline',
      orderProductAmount: 107,
      activityAmount: 19.8,
      freightAmount: 6,
      orderAmount: 93.2,
      shoppingCarVersion: 3,
    });
  });

  it('pickup and dine-in: no address, no contactless, online payment only, the desk', () => {
    const order = buildOrder(makeCart({ orderType: 2, deskNo: 'A12', deliveryFeeAfterPE: 0 }), choices);
    expect(order).toMatchObject({ orderType: 2, consignAddressId: null, receiverName: null, contactless: false, paymentType: 'online', deskNo: 'A12', freightAmount: 0 });
    expect(paymentTypesFor(0)).toEqual(['online', 'offline']);
    expect(paymentTypesFor(1)).toEqual(['online']);
  });

  it('sends back the coupons the cart shows applied, and nothing when there are none', () => {
    expect(buildOrder(makeCart({ osCoupons: ['C1', 'C2'] }), choices).osCoupons).toEqual(['C1', 'C2']);
    expect('osCoupons' in buildOrder(makeCart(), choices)).toBe(false);
  });
});

describe('IdempotencyKeys', () => {
  it('reuses the key for a retry of the same body, a new one for another body or after forget', () => {
    let n = 0;
    const keys = new IdempotencyKeys(() => `k${(n += 1)}`);
    const a = buildOrder(makeCart(), choices);
    expect(keys.keyFor(a)).toBe('k1');
    expect(keys.keyFor({ ...a })).toBe('k1');
    const b = buildOrder(makeCart({ shoppingCarVersion: 4, orderAmount: 90 }), choices);
    expect(keys.keyFor(b)).toBe('k2');
    keys.forget();
    expect(keys.keyFor(b)).toBe('k3');
  });
});
