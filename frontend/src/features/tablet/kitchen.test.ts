import { describe, expect, it } from 'vitest';
import { translate, type Lang, type TFunction } from '@/lib/i18n';
import { flavourLabels, flavourLayout, lineDetails, orderFlags, ticketModel } from './kitchen';
import { makeKitchenLine, makeTabletOrder } from './testOrder';

const tOf =
  (lang: Lang): TFunction =>
  (key, params) =>
    translate(lang, key, params);
const zh = tOf('zh');
const en = tOf('en');
// 2026-11-24 11:00 in Shanghai.
const NOW = 1_795_489_200_000;

describe('flavours', () => {
  it.each([
    [0, 'whole'],
    [1, 'whole'],
    [2, 'halves'],
    [3, 'portions'],
    [4, 'quarters'],
    [6, 'portions'],
  ] as const)('%i flavours are laid out as %s', (n, layout) => {
    expect(flavourLayout(n)).toBe(layout);
  });
  it('names where each goes, in the tablet language', () => {
    expect(flavourLabels(2, zh)).toEqual(['左半', '右半']);
    expect(flavourLabels(4, zh)).toEqual(['左上', '右上', '右下', '左下']);
    expect(flavourLabels(3, zh)).toEqual(['口味1', '口味2', '口味3']);
    expect(flavourLabels(2, en)).toEqual(['Left half', 'Right half']);
  });
});

describe('lineDetails', () => {
  const texts = (line: Parameters<typeof lineDetails>[0], t = zh) => lineDetails(line, t).map((d) => `${d.kind}:${d.text}`);

  it.each([
    [
      'two flavours as halves',
      makeKitchenLine({ name: '经典双拼比萨', productType: 9, size: '14英寸', crust: '芝心', flavours: ['香辣鸡肉', '玛格丽特'] }),
      ['spec:14英寸 · 芝心', 'flavour:左半：香辣鸡肉', 'flavour:右半：玛格丽特'],
    ],
    [
      'four flavours as quarters',
      makeKitchenLine({ size: '12英寸', crust: null, flavours: ['意式香肠', '夏威夷风光', '玛格丽特', '田园蔬菜'] }),
      ['spec:12英寸', 'flavour:左上：意式香肠', 'flavour:右上：夏威夷风光', 'flavour:右下：玛格丽特', 'flavour:左下：田园蔬菜'],
    ],
    [
      'sauce, extras and toppings taken off',
      makeKitchenLine({ sauce: '烧烤酱', extras: [{ name: '芝士', quantity: 2 }, { name: '培根', quantity: 1 }], removed: ['洋葱'] }),
      ['spec:9英寸 · 芝心', 'sauce:酱：烧烤酱', 'extra:加芝士×2', 'extra:加培根', 'removed:去洋葱'],
    ],
    [
      'a combo with its pizza size and crust',
      makeKitchenLine({
        name: '超值双人餐',
        productType: 2,
        size: null,
        crust: null,
        combo: [
          { name: '意式香肠比萨', quantity: 1, size: '12英寸', crust: '经典手拍' },
          { name: '可乐', quantity: 2, size: null, crust: null },
        ],
      }),
      ['combo:意式香肠比萨（12英寸 · 经典手拍）', 'combo:可乐 ×2'],
    ],
    [
      'a line from an older server: its flat options',
      makeKitchenLine({ size: null, crust: null, options: ['12-inch', '加Cheese'] }),
      ['spec:12-inch', 'spec:加Cheese'],
    ],
  ])('%s', (_name, line, want) => {
    expect(texts(line)).toEqual(want);
  });

  it('keeps the zh names and puts English words around them in the en UI', () => {
    const line = makeKitchenLine({ flavours: ['香辣鸡肉', '玛格丽特'], removed: ['洋葱'] });
    expect(texts(line, en)).toEqual(['spec:9英寸 · 芝心', 'flavour:Left half: 香辣鸡肉', 'flavour:Right half: 玛格丽特', 'removed:No 洋葱']);
  });
});

describe('orderFlags', () => {
  const kinds = (o: ReturnType<typeof makeTabletOrder>, t = zh) => orderFlags(o, t, NOW).map((f) => `${f.kind}:${f.text}`);

  it('a plain paid order shows only its tableware', () => {
    expect(kinds(makeTabletOrder())).toEqual(['tableware:餐具 1 份']);
    expect(kinds(makeTabletOrder({ tableware: 0 }))).toEqual(['tableware:无需餐具']);
  });
  it('shows every flag, most urgent first', () => {
    const o = makeTabletOrder({
      isBookOrder: true,
      orderTime: NOW + 2 * 3600_000,
      paymentType: 'offline',
      cashToCollect: 85.2,
      contactless: true,
      invoice: { kind: 'company', title: '上海某某有限公司', taxNo: '91310000MA1FL0000X', email: null },
      tableware: 3,
    });
    expect(kinds(o)).toEqual(['book:预约 13:00', 'cash:货到付款 收¥85.20', 'contactless:无接触配送', 'invoice:需开发票', 'tableware:餐具 3 份']);
    expect(orderFlags(o, zh, NOW).find((f) => f.kind === 'invoice')?.more).toEqual(['类型：单位', '抬头：上海某某有限公司', '税号：91310000MA1FL0000X']);
    expect(kinds(o, en)).toEqual([
      'book:Booked for 13:00',
      'cash:Collect ¥85.20 cash',
      'contactless:Contactless delivery',
      'invoice:Invoice requested',
      'tableware:3 sets of tableware',
    ]);
  });
  it('a priority order (a member privilege) says so before anything else', () => {
    const o = makeTabletOrder({ priority: true, paymentType: 'offline', cashToCollect: 85.2 });
    expect(kinds(o)).toEqual(['priority:优先制作（会员特权）', 'cash:货到付款 收¥85.20', 'tableware:餐具 1 份']);
    expect(kinds(o, en)[0]).toBe('priority:Priority: make first (member privilege)');
  });
  it('a booking for another day says the day; a dine-in order its table; one set is singular', () => {
    const o = makeTabletOrder({ isBookOrder: true, orderTime: NOW + 24 * 3600_000, orderType: 2, deskNo: 'A12' });
    expect(kinds(o, en)).toEqual(['book:Booked for 11-25 11:00', 'desk:Table A12', 'tableware:1 set of tableware']);
  });
});

describe('ticketModel', () => {
  it('holds what the ticket prints, the flags without those it has rows for', () => {
    const o = makeTabletOrder({
      orderType: 2,
      deskNo: 'A12',
      isBookOrder: true,
      orderTime: NOW + 3600_000,
      remark: '少放辣',
      lines: [makeKitchenLine({ quantity: 2, flavours: ['香辣鸡肉', '玛格丽特'] }), makeKitchenLine({ name: '可乐', quantity: 1, size: null, crust: null, options: [] })],
    });
    const m = ticketModel(o, zh, NOW, '0001');
    expect(m).toMatchObject({
      store: '人民广场旗舰店',
      shortNo: '0001',
      type: '堂食',
      booked: '预约 12:00',
      desk: 'A12',
      remark: '少放辣',
      itemCount: 3,
    });
    expect(m.lines[0]?.details.map((d) => d.text)).toEqual(['9英寸 · 芝心', '左半：香辣鸡肉', '右半：玛格丽特']);
    expect(m.flags.map((f) => f.kind)).toEqual(['tableware']);
  });
});
