import type { Address, BreakdownDiscount, BreakdownLine, Cart, CartItem, City, District, Me, Menu, OrderDetail, PriceBreakdown, ProductCard, ProductDetail, RuleOption, Store } from '@/lib/api/types';

export function makeStore(over: Partial<Store> = {}): Store {
  return {
    storeCode: 'SH001',
    storeName: '人民广场旗舰店',
    storeNameCN: '人民广场旗舰店',
    storeNameEN: "People's Square Flagship",
    storeAddress: '上海市黄浦区西藏中路236号1楼',
    storeAddressCN: '上海市黄浦区西藏中路236号1楼',
    storeAddressEN: '1F, 236 Middle Xizang Road',
    lat: 31.231655,
    lng: 121.476213,
    point: { lng: 121.476213, lat: 31.231655 },
    inRange: null,
    distance: null,
    areaPoints: [],
    status: 'open',
    isOpen: true,
    withinHours: true,
    storeTel: '021-63225180',
    standbyTel: null,
    cityCode: '310100',
    cityName: '上海',
    cityNameCN: '上海',
    cityNameEN: 'Shanghai',
    districtCode: '310101',
    districtName: '黄浦区',
    districtNameEN: 'Huangpu',
    groupCode: 'FLAGSHIP',
    deliveryTime: 30,
    estimateTime: 15,
    businessTimeZones: [{ start: '10:00', end: '23:59' }],
    businessHours: '10:00:00-23:59:00',
    businessHourListText: '10:00-23:59',
    serviceMethods: [0, 1, 2],
    serviceNotice: null,
    businessNotice: null,
    stopStoreNotice: null,
    bookEnable: true,
    bookDays: 3,
    defaultBookTime: null,
    exclusionDayList: [],
    deliveryFee: 6,
    freeDeliveryThreshold: 99,
    minDeliveryAmount: 20,
    isVirtual: false,
    ...over,
  };
}

export const virtualStore = makeStore({
  storeCode: '88888',
  storeName: '虚拟门店',
  storeNameCN: '虚拟门店',
  storeNameEN: 'Virtual store',
  isVirtual: true,
});

export function makeCard(over: Partial<ProductCard> = {}): ProductCard {
  return {
    productCode: 'PZ001',
    categoryCode: 'PIZZA',
    productName: '超级至尊比萨',
    productNameCN: '超级至尊比萨',
    productNameEN: 'Super Supreme Pizza',
    description: '八种配料',
    descriptionEN: 'Eight toppings',
    sellingPrice: 69,
    minSale: 1,
    imageURL1: '/images/products/p-super-supreme.svg',
    imageURL2: null,
    productType: 1,
    productSubType: 0,
    recommendType: 1,
    sort: 1,
    soldOut: false,
    ...over,
  };
}

export function makeMenu(over: Partial<Menu> = {}): Menu {
  return {
    storeCode: 'SH001',
    orderType: 0,
    orderTime: 0,
    storeStatus: 'open',
    businessNotice: null,
    stopStoreNotice: null,
    categories: [
      { categoryCode: 'PIZZA', categoryName: '比萨', categoryNameCN: '比萨', categoryNameEN: 'Pizzas', sort: 20, products: [makeCard()] },
      {
        categoryCode: 'DRINK',
        categoryName: '饮品',
        categoryNameCN: '饮品',
        categoryNameEN: 'Drinks',
        sort: 60,
        products: [makeCard({ productCode: 'DR001', categoryCode: 'DRINK', productName: '可口可乐', productType: 0, sellingPrice: 8, soldOut: true })],
      },
      { categoryCode: 'EMPTY', categoryName: '空分类', categoryNameCN: '空分类', categoryNameEN: 'Empty', sort: 70, products: [] },
      {
        categoryCode: 'GIFT',
        categoryName: '赠品',
        categoryNameCN: '赠品',
        categoryNameEN: 'Gifts',
        sort: 99,
        products: [makeCard({ productCode: 'GF001', categoryCode: 'GIFT', productName: '生日蛋糕券', productType: 0, sellingPrice: 0 })],
      },
    ],
    ...over,
  };
}

export function makeProduct(over: Partial<ProductDetail> = {}): ProductDetail {
  return {
    ...makeCard(),
    detailImageURLs: '/images/products/p-super-supreme.svg',
    sizeList: [
      { sizeCode: '9', sizeName: '9英寸', sizeNameEN: '9-inch', price: 69, isDefault: true },
      { sizeCode: '12', sizeName: '12英寸', sizeNameEN: '12-inch', price: 89, isDefault: false },
      { sizeCode: '14', sizeName: '14英寸', sizeNameEN: '14-inch', price: 109, isDefault: false },
    ],
    pastryList: [
      { pastryCode: 'CLASSIC', pastryName: '经典手拍', pastryNameEN: 'Classic', extraPrice: 0, sizeCodes: [], isDefault: true },
      { pastryCode: 'CHEESE', pastryName: '芝心', pastryNameEN: 'Cheese crust', extraPrice: 20, sizeCodes: ['12', '14'], isDefault: false },
    ],
    flavorList: [],
    flavorCount: 0,
    sauceList: [],
    baseIngredientList: [{ code: 'B-HAM', name: '火腿', nameEN: 'Ham', price: 0, isDefault: true, maxQuantity: 1, soldOut: false }],
    additionalIngredientList: [{ code: 'X-CHEESE', name: '芝士', nameEN: 'Extra cheese', price: 10, isDefault: false, maxQuantity: 2, soldOut: false }],
    comboRounds: [],
    styleOption: null,
    detailPageShowNum: { size: 4, pastry: 4, sauces: 4, spec1: 4, spec2: 4 },
    effectiveRule: null,
    ...over,
  };
}

export const cities: City[] = [
  { cityCode: '310100', cityName: '上海', cityNameCN: '上海', cityNameEN: 'Shanghai', cityCharAt0: 'S', lat: 31.23, lng: 121.47, deliveryDisplay: true, hot: true },
  { cityCode: '110100', cityName: '北京', cityNameCN: '北京', cityNameEN: 'Beijing', cityCharAt0: 'B', lat: 39.9, lng: 116.4, deliveryDisplay: true, hot: true },
  { cityCode: '330100', cityName: '杭州', cityNameCN: '杭州', cityNameEN: 'Hangzhou', cityCharAt0: 'H', lat: 30.27, lng: 120.15, deliveryDisplay: true, hot: false },
  { cityCode: '440300', cityName: '深圳', cityNameCN: '深圳', cityNameEN: 'Shenzhen', cityCharAt0: 'S', lat: 22.5, lng: 114.05, deliveryDisplay: true, hot: false },
];

export const districts: District[] = [
  { cityCode: '310100', districtCode: '', districtName: '全部', districtNameCN: '全部', districtNameEN: 'All' },
  { cityCode: '310100', districtCode: '310101', districtName: '黄浦区', districtNameCN: '黄浦区', districtNameEN: 'Huangpu' },
  { cityCode: '310100', districtCode: '310104', districtName: '徐汇区', districtNameCN: '徐汇区', districtNameEN: 'Xuhui' },
];

export function makeMe(over: Partial<Me> = {}): Me {
  return {
    id: 1,
    userKey: 'k',
    cellPhone: '139****5678',
    name: null,
    email: null,
    gender: 0,
    birthday: null,
    defaultBirthday: '2011-11-22',
    userKind: 'guest',
    isLoyalty: false,
    loyaltyLevel: null,
    anonymousFlag: 0,
    userfulPoint: 0,
    addressId: null,
    personalizedShowTag: false,
    isPersonalizedAgree: false,
    isRemindAgain: false,
    hasPassword: true,
    consentRequired: false,
    createdAt: 0,
    ...over,
  };
}


export function makeAddress(over: Partial<Address> = {}): Address {
  return {
    id: 7,
    name: '张三',
    phone: '13812345678',
    sex: null,
    tag: null,
    baseAddress: '上海市黄浦区西藏中路236号',
    houseNumber: '5楼501',
    lat: '31.231655',
    lng: '121.476213',
    cityName: '上海',
    provinceName: null,
    countyName: '黄浦区',
    isDefault: false,
    illegal: false,
    hasScope: true,
    updatedAt: 0,
    ...over,
  };
}

export function makeCartItem(over: Partial<CartItem> = {}): CartItem {
  return {
    id: 'l_1',
    shoppingCarId: 'l_1',
    productCode: 'PZ001',
    prodCode: 'PZ001',
    categoryCode: 'PIZZA',
    prodName: '超级至尊比萨',
    prodNameEn: 'Super Supreme Pizza',
    imageUrl: '/images/products/p-super-supreme.svg',
    productType: 1,
    productSubType: 0,
    minSale: 1,
    quantity: 1,
    sizeCode: '12',
    pizzaSizeCode: '12',
    pizzaSizeName: '12英寸',
    pizzaPastryCode: 'CLASSIC',
    pizzaPastryName: '经典手拍',
    properties: [
      { group: 'Extra', values: [{ id: 'X-CHEESE', name: '芝士', price: 10, quantity: 1, isDefault: false, sizeCode: null, priceAmount: 10 }] },
      { group: 'Base', values: [{ id: 'B-HAM', name: '火腿', price: 0, quantity: 0, isDefault: true, sizeCode: null, priceAmount: 0 }] },
    ],
    originalPrice: 99,
    unitPrice: 99,
    countPrice: 99,
    countPriceAfterPE: 79.2,
    productDisable: false,
    disableReason: null,
    disableMsg: null,
    ruleIds: ['R002'],
    promotionDesc: '比萨8折',
    inCarTime: 0,
    selection: { sizeCode: null, pastryCode: null, flavorCodes: [], sauceCode: null, removedBase: [], extras: {}, combo: {} },
    ...over,
  };
}

export const drinkLine = (over: Partial<CartItem> = {}): CartItem =>
  makeCartItem({
    id: 'l_2',
    shoppingCarId: 'l_2',
    productCode: 'DR002',
    prodCode: 'DR002',
    categoryCode: 'DRINK',
    prodName: '雪碧',
    prodNameEn: 'Sprite',
    productType: 0,
    sizeCode: null,
    pizzaSizeCode: null,
    pizzaSizeName: null,
    pizzaPastryCode: null,
    pizzaPastryName: null,
    properties: [],
    originalPrice: 8,
    unitPrice: 8,
    countPrice: 8,
    countPriceAfterPE: 8,
    ruleIds: [],
    promotionDesc: null,
    ...over,
  });

/** A promotion of the cart's availableRules; applied unless `reason` says why not. */
export function makeRule(over: Partial<RuleOption> & Pick<RuleOption, 'ruleId' | 'ruleName'>): RuleOption {
  return {
    ruleType: 'percentOff',
    description: '',
    chosen: false,
    applied: true,
    discountAmount: 0,
    savedAmount: 0,
    reason: null,
    reasonMsg: null,
    gap: null,
    excludedBy: null,
    ...over,
  };
}

/** The breakdown of makeCart(): ¥99.00 × 1 + ¥8.00 × 1 − ¥19.80 (R002) + ¥6.00 = ¥93.20. */
export const PIZZA_BILL_LINE: BreakdownLine = { lineId: 'l_1', productCode: 'PZ001', nameCn: '超级至尊比萨', nameEn: 'Super Supreme Pizza', specCn: '12英寸 经典手拍', specEn: '12-inch Classic Hand-tossed', unitPrice: 99, quantity: 1, amount: 99 };
export const DRINK_BILL_LINE: BreakdownLine = { lineId: 'l_2', productCode: 'DR002', nameCn: '雪碧', nameEn: 'Sprite', specCn: '', specEn: '', unitPrice: 8, quantity: 1, amount: 8 };
export const PIZZA_20_OFF: BreakdownDiscount = { ruleId: 'R002', nameCn: '比萨8折', nameEn: '20% off pizzas', ruleType: 'percentOff', level: 'line', amount: 19.8, lineIds: ['l_1'], couponCode: null };

export function makeBreakdown(over: Partial<PriceBreakdown> = {}): PriceBreakdown {
  return {
    lines: [PIZZA_BILL_LINE, DRINK_BILL_LINE],
    discounts: [PIZZA_20_OFF],
    productAmount: 107,
    discountAmount: 19.8,
    deliveryFee: 6,
    deliveryFeeWaived: 0,
    pointsUsed: 0,
    pointsDeduction: 0,
    couponAmount: 0,
    couponDeliveryWaived: 0,
    payable: 93.2,
    ...over,
  };
}

/** A delivery cart of SH001: a 12" pizza (20 % off) and a drink, ¥107.00 → ¥87.20 + ¥6.00 delivery. */
export function makeCart(over: Partial<Cart> = {}): Cart {
  return {
    cartToken: null,
    shoppingCarVersion: 3,
    storeCode: 'SH001',
    orderType: 0,
    oldServiceMethod: null,
    orderTime: Date.parse('2026-11-24T10:30:00Z'),
    isBookOrder: false,
    deskNo: null,
    items: [makeCartItem(), drinkLine()],
    saleOutItemsFromShoppingCar: [],
    timeOutItems: [],
    effectOutItems: [],
    couponItems: [],
    saleOutCouponItems: [],
    timeOutCouponItems: [],
    effectOutCouponItems: [],
    couponMutexBeans: [],
    osCoupons: [],
    exchangeCouponBeans: [],
    couponsAuto: true,
    couponDiscountsAmount: 0,
    cashCouponAmount: 0,
    couponDeliveryFee: 0,
    priceOfProduct: 107,
    priceOfProductAfterPE: 87.2,
    discountAmount: 19.8,
    deliveryFee: 6,
    deliveryFeeAfterPE: 6,
    differenceDeliveryFee: 11.8,
    differenceDeliveryFeeMsg: '再买¥11.80即可免配送费',
    minDeliveryAmount: 20,
    minDeliveryGap: 0,
    minDeliveryMsg: null,
    arrival: null,
    orderAmount: 93.2,
    totalQuantity: 2,
    orderRefRules: [{ ruleId: 'R002', ruleName: '比萨8折', ruleType: 'percentOff', discountAmount: 19.8 }],
    productGroupRefRules: [],
    availableRules: [],
    ruleMutexBeans: [],
    breakdown: makeBreakdown(),
    pointsDeduction: null,
    ...over,
  };
}

/** An empty visitor cart, as the first GET /cart answers it. */
export function emptyCart(over: Partial<Cart> = {}): Cart {
  return makeCart({
    items: [],
    priceOfProduct: 0,
    priceOfProductAfterPE: 0,
    discountAmount: 0,
    deliveryFeeAfterPE: 6,
    differenceDeliveryFee: 99,
    differenceDeliveryFeeMsg: null,
    orderAmount: 0,
    totalQuantity: 0,
    orderRefRules: [],
    shoppingCarVersion: 1,
    ...over,
  });
}

/** GET /orders/{orderNo} of the order placed from makeCart(), paid on delivery. */
export function makeOrder(over: Partial<OrderDetail> = {}): OrderDetail {
  const cart = makeCart();
  const at = cart.orderTime ?? 0;
  return {
    orderNo: 'P20261124001',
    orderId: 1,
    state: 7,
    stateLabel: '货到付款',
    progress: 0,
    orderType: 0,
    orderTime: at,
    isBookOrder: false,
    storeCode: 'SH001',
    storeName: '人民广场旗舰店',
    storeTel: '021-63225180',
    paymentType: 'offline',
    orderProductAmount: 107,
    activityAmount: 19.8,
    freightAmount: 6,
    orderAmount: 93.2,
    paidAmount: 0,
    pointsDeductions: 0,
    pointsAmount: 0,
    receiverName: '张三',
    receiverMobile: '138****5678',
    address: { id: 7, baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼501', lat: '31.235', lng: '121.475', cityName: '上海市' },
    deskNo: null,
    remark: '',
    contactless: false,
    remarkText: '',
    paidAt: null,
    refusalReason: null,
    tableware: 1,
    isNeedInvoice: false,
    invoice: null,
    lines: cart.items,
    lineOptions: [],
    breakdown: cart.breakdown,
    createdAt: at - 60_000,
    progressLabel: '',
    rules: [],
    history: [],
    seq: 1,
    eta: null,
    arrival: null,
    steps: [],
    canCancel: false,
    viewToken: 'v_test',
    payment: null,
    payments: [],
    comment: null,
    ...over,
  };
}
