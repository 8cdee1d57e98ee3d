import type { KitchenLine, TabletOrder } from './types';

/** A paid delivery order awaiting acceptance (tests). */
export function makeTabletOrder(over: Partial<TabletOrder> = {}): TabletOrder {
  return {
    orderNo: '261124110000000001',
    state: 6,
    progress: 0,
    orderType: 0,
    orderTime: 1_795_410_000_000,
    isBookOrder: false,
    paidAt: 1_795_408_200_000,
    stageSince: 1_795_408_200_000,
    seq: 2,
    orderAmount: 85.2,
    paymentType: 'online',
    lines: [makeKitchenLine()],
    remark: '',
    contactless: false,
    cashToCollect: null,
    invoice: null,
    storeName: '人民广场旗舰店',
    tableware: 1,
    deskNo: null,
    receiverName: '李四',
    receiverMobile: '138****5678',
    address: '人民广场 1号',
    promisedBy: 1_795_410_000_000,
    arrival: null,
    // ¥99.00 × 1 − ¥19.80 + ¥6.00 = ¥85.20
    breakdown: {
      lines: [{ lineId: 'l_1', productCode: 'PZ001', nameCn: '超级至尊比萨', nameEn: 'Super Supreme Pizza', specCn: '9英寸 芝心', specEn: '9-inch Cheese-stuffed Crust', unitPrice: 99, quantity: 1, amount: 99 }],
      discounts: [{ ruleId: 'R002', nameCn: '比萨8折', nameEn: '20% off pizzas', ruleType: 'percentOff', level: 'line', amount: 19.8, lineIds: ['l_1'], couponCode: null }],
      productAmount: 99,
      discountAmount: 19.8,
      deliveryFee: 6,
      deliveryFeeWaived: 0,
      pointsUsed: 0,
      pointsDeduction: 0,
      couponAmount: 0,
      couponDeliveryWaived: 0,
      payable: 85.2,
    },
    closedBy: null,
    closedAt: null,
    closeNote: null,
    priority: false,
    ...over,
  };
}

/** A plain 9-inch pizza line (tests). */
export function makeKitchenLine(over: Partial<KitchenLine> = {}): KitchenLine {
  return {
    name: '超级至尊比萨',
    quantity: 1,
    productType: 1,
    size: '9英寸',
    crust: '芝心',
    sauce: null,
    flavours: [],
    extras: [],
    removed: [],
    combo: [],
    options: ['9英寸', '芝心'],
    ...over,
  };
}
