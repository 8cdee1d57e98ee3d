import type { TabletOrder } from './types';

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
    lines: [{ name: '超级至尊比萨', quantity: 1, options: ['9英寸', '芝心饼底'], halves: [] }],
    remark: '',
    tableware: 1,
    deskNo: null,
    receiverName: '李四',
    receiverMobile: '138****5678',
    address: '人民广场 1号',
    promisedBy: 1_795_410_000_000,
    ...over,
  };
}
