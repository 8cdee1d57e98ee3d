import { describe, expect, it } from 'vitest';
import type { ProductDetail } from '@/lib/api/types';
import {
  choiceKey,
  defaultSelection,
  missingChoices,
  normalizeSelection,
  pastriesForSize,
  priceOf,
  type Selection,
} from './pricing';

function product(over: Partial<ProductDetail>): ProductDetail {
  return {
    productCode: 'P1',
    categoryCode: 'C1',
    productName: '超级至尊',
    productNameCN: '超级至尊',
    productNameEN: 'Super Supreme',
    description: '',
    descriptionEN: '',
    sellingPrice: 89.9,
    minSale: 1,
    imageURL1: '/images/products/p1.svg',
    imageURL2: null,
    productType: 1,
    productSubType: 0,
    recommendType: 0,
    sort: 1,
    soldOut: false,
    detailImageURLs: '',
    sizeList: [],
    pastryList: [],
    flavorList: [],
    flavorCount: 0,
    sauceList: [],
    baseIngredientList: [],
    additionalIngredientList: [],
    comboRounds: [],
    styleOption: null,
    detailPageShowNum: { size: 0, pastry: 0, sauces: 0, spec1: 0, spec2: 0 },
    effectiveRule: null,
    ...over,
  };
}

const sizes = [
  { sizeCode: 'S9', sizeName: '9寸', sizeNameEN: '9"', price: 89.9, isDefault: true },
  { sizeCode: 'S12', sizeName: '12寸', sizeNameEN: '12"', price: 119.9, isDefault: false },
];
const pastries = [
  { pastryCode: 'THIN', pastryName: '薄饼', pastryNameEN: 'Thin', extraPrice: 0, sizeCodes: [], isDefault: true },
  { pastryCode: 'CHEESE', pastryName: '芝心', pastryNameEN: 'Cheese crust', extraPrice: 15, sizeCodes: ['S12'], isDefault: false },
  { pastryCode: 'PAN', pastryName: '铁盘', pastryNameEN: 'Pan', extraPrice: 5.5, sizeCodes: ['S9', 'S12'], isDefault: false },
];
const sauces = [
  { code: 'TOM', name: '番茄酱', nameEN: 'Tomato', price: 0, isDefault: true, maxQuantity: 1, soldOut: false },
  { code: 'BBQ', name: '烧烤酱', nameEN: 'BBQ', price: 3, isDefault: false, maxQuantity: 1, soldOut: false },
];
const extras = [
  { code: 'CHZ', name: '芝士', nameEN: 'Cheese', price: 6, isDefault: false, maxQuantity: 3, soldOut: false },
  { code: 'BCN', name: '培根', nameEN: 'Bacon', price: 8.8, isDefault: false, maxQuantity: 2, soldOut: false },
];
const base = [{ code: 'OLV', name: '橄榄', nameEN: 'Olive', price: 0, isDefault: true, maxQuantity: 1, soldOut: false }];
const pizza = product({ sizeList: sizes, pastryList: pastries, sauceList: sauces, additionalIngredientList: extras, baseIngredientList: base });

const flavors = [
  { flavorCode: 'F1', flavorName: '夏威夷', flavorNameEN: 'Hawaiian', imageURL: '', prices: [{ sizeCode: 'S9', price: 79 }, { sizeCode: 'S12', price: 109 }] },
  { flavorCode: 'F2', flavorName: '至尊', flavorNameEN: 'Supreme', imageURL: '', prices: [{ sizeCode: 'S9', price: 99 }, { sizeCode: 'S12', price: 129 }] },
  { flavorCode: 'F3', flavorName: '芝士', flavorNameEN: 'Cheese', imageURL: '', prices: [{ sizeCode: 'S9', price: 69 }] },
];
const twoFlavour = product({ productType: 9, sizeList: sizes, pastryList: pastries, flavorList: flavors, flavorCount: 2, sauceList: sauces, additionalIngredientList: extras });
const multi = product({ productType: 1, sizeList: sizes, flavorList: flavors, flavorCount: 3 });

const combo = product({
  productType: 2,
  sellingPrice: 129,
  comboRounds: [
    {
      roundCode: 'R1',
      roundName: '选比萨',
      roundNameEN: 'Pizza',
      chooseNum: 1,
      choices: [
        { productCode: 'P1', productName: 'a', productNameEN: 'a', imageURL1: '', addPrice: 0, isDefault: true, sizeCode: 'S9' },
        { productCode: 'P1', productName: 'a', productNameEN: 'a', imageURL1: '', addPrice: 20, isDefault: false, sizeCode: 'S12' },
      ],
    },
    {
      roundCode: 'R2',
      roundName: '选小食',
      roundNameEN: 'Sides',
      chooseNum: 2,
      choices: [
        { productCode: 'W1', productName: 'w', productNameEN: 'w', imageURL1: '', addPrice: 0, isDefault: true, sizeCode: null },
        { productCode: 'W2', productName: 'x', productNameEN: 'x', imageURL1: '', addPrice: 4.5, isDefault: false, sizeCode: null },
      ],
    },
  ],
});
const single = product({ productType: 0, sellingPrice: 19.9 });
const juice = product({
  productType: 7,
  sellingPrice: 12,
  sizeList: [
    { sizeCode: 'M', sizeName: '中杯', sizeNameEN: 'Medium', price: 12, isDefault: true },
    { sizeCode: 'L', sizeName: '大杯', sizeNameEN: 'Large', price: 15.5, isDefault: false },
  ],
});
const minSale3 = product({ productType: 0, sellingPrice: 3.3, minSale: 3 });

function sel(p: ProductDetail, over: Partial<Selection> = {}): Selection {
  return { ...defaultSelection(p), ...over };
}

describe('priceOf', () => {
  const cases: [string, ProductDetail, Selection, number, number][] = [
    ['pizza default size and crust', pizza, sel(pizza), 8990, 8990],
    ['pizza larger size', pizza, sel(pizza, { sizeCode: 'S12' }), 11990, 11990],
    ['pizza size + cheese crust', pizza, sel(pizza, { sizeCode: 'S12', pastryCode: 'CHEESE' }), 13490, 13490],
    ['crust not offered for the size costs nothing', pizza, sel(pizza, { sizeCode: 'S9', pastryCode: 'CHEESE' }), 8990, 8990],
    ['pizza pan crust with decimals', pizza, sel(pizza, { pastryCode: 'PAN' }), 9540, 9540],
    ['default sauce is free', pizza, sel(pizza, { sauceCode: 'TOM' }), 8990, 8990],
    ['non-default sauce adds its price', pizza, sel(pizza, { sauceCode: 'BBQ' }), 9290, 9290],
    ['extras times quantity', pizza, sel(pizza, { extras: { CHZ: 2, BCN: 1 } }), 8990 + 1200 + 880, 8990 + 1200 + 880],
    ['extras capped at maxQuantity', pizza, sel(pizza, { extras: { BCN: 5 } }), 8990 + 1760, 8990 + 1760],
    ['removing base toppings changes nothing', pizza, sel(pizza, { removedBase: ['OLV'] }), 8990, 8990],
    ['pizza quantity 2', pizza, sel(pizza, { sizeCode: 'S12', quantity: 2 }), 11990, 23980],
    ['everything at once × 3', pizza, sel(pizza, { sizeCode: 'S12', pastryCode: 'CHEESE', sauceCode: 'BBQ', extras: { CHZ: 1 }, quantity: 3 }), 11990 + 1500 + 300 + 600, (11990 + 1500 + 300 + 600) * 3],
    ['two-flavour, nothing chosen: size price', twoFlavour, sel(twoFlavour), 8990, 8990],
    ['two-flavour takes the dearest half', twoFlavour, sel(twoFlavour, { flavorCodes: ['F1', 'F2'] }), 9900, 9900],
    ['two-flavour, same flavour twice', twoFlavour, sel(twoFlavour, { flavorCodes: ['F1', 'F1'] }), 7900, 7900],
    ['two-flavour at 12" with crust and extra', twoFlavour, sel(twoFlavour, { sizeCode: 'S12', pastryCode: 'CHEESE', flavorCodes: ['F2', 'F1'], extras: { CHZ: 1 } }), 12900 + 1500 + 600, 12900 + 1500 + 600],
    ['flavour without a price at the size uses the size price', twoFlavour, sel(twoFlavour, { sizeCode: 'S12', flavorCodes: ['F3', 'F3'] }), 11990, 11990],
    ['multi-flavour dearest of three', multi, sel(multi, { flavorCodes: ['F3', 'F1', 'F3'] }), 7900, 7900],
    ['combo defaults', combo, sel(combo), 12900, 12900],
    ['combo upgrade and paid side', combo, sel(combo, { combo: { R1: ['P1|S12'], R2: ['W1|', 'W2|'] } }), 12900 + 2000 + 450, 12900 + 2000 + 450],
    ['combo same paid side twice', combo, sel(combo, { combo: { R1: ['P1|S9'], R2: ['W2|', 'W2|'] } }), 12900 + 900, 12900 + 900],
    ['combo ignores choices beyond chooseNum', combo, sel(combo, { combo: { R1: ['P1|S12', 'P1|S12'], R2: [] } }), 14900, 14900],
    ['single selling price × 2', single, sel(single, { quantity: 2 }), 1990, 3980],
    ['juice default size', juice, sel(juice), 1200, 1200],
    ['juice large size', juice, sel(juice, { sizeCode: 'L' }), 1550, 1550],
    ['quantity below minSale counts as minSale', minSale3, sel(minSale3, { quantity: 1 }), 330, 990],
    ['unknown size falls back to selling price', pizza, sel(pizza, { sizeCode: 'XXL' }), 8990, 8990],
  ];
  it.each(cases)('%s', (_name, p, s, unit, total) => {
    const price = priceOf(p, s);
    expect(price.unitFen).toBe(unit);
    expect(price.totalFen).toBe(total);
  });

  it('adds in fen, never in floating yuan (0.1 + 0.2)', () => {
    const p = product({ productType: 0, sellingPrice: 0.1, additionalIngredientList: [{ code: 'X', name: 'x', nameEN: 'x', price: 0.2, isDefault: false, maxQuantity: 9, soldOut: false }] });
    expect(priceOf(p, sel(p, { extras: { X: 1 } })).unitFen).toBe(30);
  });
});

describe('defaultSelection', () => {
  it('picks the default size, a crust valid for it, the default sauce and minSale', () => {
    const s = defaultSelection(pizza);
    expect(s).toMatchObject({ sizeCode: 'S9', pastryCode: 'THIN', sauceCode: 'TOM', quantity: 1, flavorCodes: [] });
  });
  it('gives a two-flavour pizza two empty halves and a combo its default choices', () => {
    expect(defaultSelection(twoFlavour).flavorCodes).toEqual([null, null]);
    expect(defaultSelection(multi).flavorCodes).toHaveLength(3);
    expect(defaultSelection(combo).combo).toEqual({ R1: ['P1|S9'], R2: ['W1|'] });
  });
  it('starts at minSale', () => {
    expect(defaultSelection(minSale3).quantity).toBe(3);
  });
  it('takes off a base topping the store has 86ed, and keeps it off (issue 22)', () => {
    const out = product({ sizeList: sizes, pastryList: pastries, sauceList: sauces, baseIngredientList: [...base, { code: 'MSH', name: '蘑菇', nameEN: 'Mushroom', price: 0, isDefault: true, maxQuantity: 1, soldOut: true }] });
    expect(defaultSelection(out).removedBase).toEqual(['MSH']);
    expect(normalizeSelection(out, { ...defaultSelection(out), removedBase: [] }).removedBase).toEqual(['MSH']);
    expect(normalizeSelection(out, { ...defaultSelection(out), removedBase: ['OLV'] }).removedBase).toEqual(['OLV', 'MSH']);
  });
});

describe('normalizeSelection', () => {
  it('drops a crust the new size does not offer', () => {
    const s = normalizeSelection(pizza, sel(pizza, { sizeCode: 'S9', pastryCode: 'CHEESE' }));
    expect(s.pastryCode).toBe('THIN');
  });
  it('keeps a crust the new size offers', () => {
    expect(normalizeSelection(pizza, sel(pizza, { sizeCode: 'S12', pastryCode: 'PAN' })).pastryCode).toBe('PAN');
  });
  it('clamps extras and quantity and forgets unknown codes', () => {
    const s = normalizeSelection(pizza, sel(pizza, { extras: { CHZ: 9, NOPE: 1 }, quantity: 0, removedBase: ['OLV', 'NOPE'] }));
    expect(s.extras).toEqual({ CHZ: 3 });
    expect(s.quantity).toBe(1);
    expect(s.removedBase).toEqual(['OLV']);
  });
  it('keeps at most chooseNum known choices per round', () => {
    const s = normalizeSelection(combo, sel(combo, { combo: { R1: ['P1|S12', 'P1|S9'], R2: ['W9|', 'W2|'] } }));
    expect(s.combo).toEqual({ R1: ['P1|S12'], R2: ['W2|'] });
  });
});

describe('pastriesForSize', () => {
  it('offers the crusts listing the size or no size', () => {
    expect(pastriesForSize(pizza, 'S9').map((c) => c.pastryCode)).toEqual(['THIN', 'PAN']);
    expect(pastriesForSize(pizza, 'S12').map((c) => c.pastryCode)).toEqual(['THIN', 'CHEESE', 'PAN']);
  });
});

describe('missingChoices', () => {
  it('asks for the missing halves', () => {
    expect(missingChoices(twoFlavour, sel(twoFlavour, { flavorCodes: ['F1', null] }))).toEqual([{ kind: 'flavors', count: 1 }]);
    expect(missingChoices(twoFlavour, sel(twoFlavour, { flavorCodes: ['F1', 'F1'] }))).toEqual([]);
  });
  it('asks for what each combo round still needs', () => {
    expect(missingChoices(combo, sel(combo))).toEqual([{ kind: 'combo', roundCode: 'R2', roundName: '选小食', count: 1 }]);
  });
  it('needs nothing for a plain pizza', () => {
    expect(missingChoices(pizza, sel(pizza))).toEqual([]);
  });
  it('names combo choices by product and size', () => {
    expect(choiceKey({ productCode: 'P1', sizeCode: null })).toBe('P1|');
  });
});
