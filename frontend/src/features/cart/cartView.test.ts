import { describe, expect, it } from 'vitest';
import { translate } from '@/lib/i18n';
import { drinkLine, emptyCart, makeCart, makeCartItem, makeRule } from '@/test/fixtures';
import type { TFunction } from '@/lib/i18n';
import { itemOptions } from '@/utils/cartItem';
import { cartAmounts, checkoutBlock, disabledCount, disabledGroups, itemCount, ruleChoices, ruleGaps, ruleReasonText } from './cartView';

const zh: TFunction = (key, params) => translate('zh', key, params);
const en: TFunction = (key, params) => translate('en', key, params);

describe('itemOptions', () => {
  it('reads size, crust, flavours, sauce, extras, toppings taken off and combo picks', () => {
    const item = makeCartItem({
      properties: [
        { group: 'Combo', values: [{ id: 'SD001', name: '烤翅', price: 0, quantity: 2, isDefault: true, sizeCode: null, priceAmount: 0 }] },
        { group: 'Base', values: [
          { id: 'B-HAM', name: '火腿', price: 0, quantity: 0, isDefault: true, sizeCode: null, priceAmount: 0 },
          { id: 'B-ONION', name: '洋葱', price: 0, quantity: 1, isDefault: true, sizeCode: null, priceAmount: 0 },
        ] },
        { group: 'Extra', values: [{ id: 'X-CHEESE', name: '芝士', price: 10, quantity: 2, isDefault: false, sizeCode: null, priceAmount: 20 }] },
        { group: 'Sauce', values: [{ id: 'S-BBQ', name: '烧烤酱', price: 0, quantity: 1, isDefault: false, sizeCode: null, priceAmount: 0 }] },
        { group: 'Pizza', values: [
          { id: 'F-P', name: '意式香肠', price: 0, quantity: 1, isDefault: false, sizeCode: '12', priceAmount: 0 },
          { id: 'F-M', name: '玛格丽特', price: 0, quantity: 1, isDefault: false, sizeCode: '12', priceAmount: 0 },
        ] },
      ],
    });
    expect(itemOptions(item, zh)).toEqual(['12英寸', '经典手拍', '意式香肠', '玛格丽特', '烧烤酱', '加芝士×2', '去火腿', '烤翅×2']);
    expect(itemOptions({ ...item, pizzaSizeName: null, pizzaPastryName: null, properties: item.properties.filter((g) => g.group === 'Extra') }, en)).toEqual(['+芝士 ×2']);
    expect(itemOptions(drinkLine(), zh)).toEqual([]);
  });
});

describe('disabled items', () => {
  it('groups them by reason, empty groups left out', () => {
    const cart = makeCart({
      saleOutItemsFromShoppingCar: [makeCartItem({ id: 'a', disableReason: 'soldOut', disableMsg: '已售罄' })],
      effectOutItems: [makeCartItem({ id: 'b' }), makeCartItem({ id: 'c' })],
    });
    const groups = disabledGroups(cart);
    expect(groups.map((g) => [g.reason, g.label, g.items.map((i) => i.id)])).toEqual([
      ['soldOut', 'cart.reason.soldOut', ['a']],
      ['expired', 'cart.reason.expired', ['b', 'c']],
    ]);
    expect(disabledCount(cart)).toBe(3);
    expect(translate('zh', 'cart.reason.offTime')).toBe('非售卖时间');
    expect(translate('en', 'cart.reason.expired')).toBe('Item has expired');
  });
});

describe('checkoutBlock (spec §8 cart hints)', () => {
  it('not loaded, empty, only disabled items, or fine', () => {
    expect(checkoutBlock(null)).toBe('cart.notLoaded');
    expect(checkoutBlock(emptyCart())).toBe('cart.emptyCannotCheckout');
    expect(checkoutBlock(emptyCart({ timeOutItems: [makeCartItem()] }))).toBe('cart.noValidItems');
    expect(checkoutBlock(makeCart())).toBeNull();
    expect(translate('zh', 'cart.emptyCannotCheckout')).toBe('购物车为空，无法结算');
    expect(translate('zh', 'cart.noValidItems')).toBe('购物车中没有有效商品');
  });
});

describe('ruleChoices', () => {
  it('offers the rules of a mutex group the cart could use, with the one in force', () => {
    const cart = makeCart({
      availableRules: [
        makeRule({ ruleId: 'R001', ruleName: '周二比萨日', ruleType: 'fixedPrice', applied: false, discountAmount: 29.1, reason: 'notEffective' }),
        makeRule({ ruleId: 'R002', ruleName: '比萨8折', discountAmount: 19.8, savedAmount: 19.8 }),
        makeRule({ ruleId: 'R005', ruleName: '外送满150减20', ruleType: 'fullReduction', applied: false, reason: 'belowThreshold', gap: 62.8 }),
      ],
      ruleMutexBeans: [
        { mutexDetails: [{ ruleId: 'R001' }, { ruleId: 'R002' }] },
        // Only one of this group is available: nothing to choose.
        { mutexDetails: [{ ruleId: 'R005' }, { ruleId: 'R006' }] },
      ],
    });
    const choices = ruleChoices(cart);
    expect(choices).toHaveLength(1);
    expect(choices[0]?.options.map((o) => o.ruleId)).toEqual(['R001', 'R002']);
    expect(choices[0]?.chosenId).toBe('R002');
  });
});

describe('why a promotion does not apply', () => {
  const cart = makeCart({
    availableRules: [
      makeRule({ ruleId: 'R002', ruleName: '比萨8折', savedAmount: 43.6 }),
      makeRule({ ruleId: 'R005', ruleName: '外送满150减20', ruleType: 'fullReduction', savedAmount: 20, chosen: true }),
      makeRule({ ruleId: 'R006', ruleName: '满200减40', ruleType: 'fullReduction', applied: false, reason: 'belowThreshold', gap: 25.6 }),
      makeRule({ ruleId: 'R001', ruleName: '周二比萨日', applied: false, reason: 'mutex', excludedBy: 'R002' }),
      makeRule({ ruleId: 'R009', ruleName: '满300减60', ruleType: 'fullReduction', applied: false, reason: 'belowThreshold', gap: 125.6 }),
      makeRule({ ruleId: 'R010', ruleName: '满100减10', ruleType: 'fullReduction', applied: false, reason: 'mutex', excludedBy: 'R005' }),
      makeRule({ ruleId: 'R007', ruleName: '东区甜品7折', applied: false, reason: 'notHere' }),
    ],
    ruleMutexBeans: [{ mutexDetails: [{ ruleId: 'R005' }, { ruleId: 'R006' }] }],
  });
  const rule = (id: string) => cart.availableRules.find((r) => r.ruleId === id) ?? makeRule({ ruleId: id, ruleName: id });

  it('says it in the app language, naming the rule that has it instead', () => {
    expect(ruleReasonText(rule('R006'), cart, zh)).toBe('再买¥25.60可享');
    expect(ruleReasonText(rule('R006'), cart, en)).toBe('Add ¥25.60 more to get it');
    expect(ruleReasonText(rule('R001'), cart, zh)).toBe('已为您选用更优惠的「比萨8折」');
    expect(ruleReasonText(rule('R010'), cart, zh)).toBe('您已选择「外送满150减20」，不可同享');
    expect(ruleReasonText(rule('R007'), cart, en)).toBe('Not for this store or order type');
    expect(ruleReasonText(rule('R002'), cart, zh)).toBeNull();
  });

  it('lists the reductions the cart falls short of, except those of a choice', () => {
    expect(ruleGaps(cart)).toEqual([{ ruleId: 'R009', name: '满300减60', gap: 12560 }]);
  });
});

describe('amounts', () => {
  it('are fen integers, counted from the server fields', () => {
    const cart = makeCart();
    expect(cartAmounts(cart)).toEqual({ product: 10700, afterPromotions: 8720, discount: 1980, deliveryFee: 600, deliveryFeeAfterPE: 600, order: 9320 });
    expect(itemCount(cart)).toBe(2);
    expect(itemCount(null)).toBe(0);
  });
});
