import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useSelectedAddress } from '@/features/address';
import { useCart } from '@/features/cart';
import { makeAddress, makeBreakdown, PIZZA_BILL_LINE, DRINK_BILL_LINE, PIZZA_20_OFF, makeCart, makeCartItem, makeMe, makeOrder } from '@/test/fixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';


const me = makeMe({ isRemindAgain: true });
const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);
const headerOf = (init: RequestInit | undefined, name: string) => (init?.headers as Record<string, string> | undefined)?.[name];

// 2026-11-24 10:30 Shanghai; tomorrow's slots at 12:00 and 12:15.
const ASAP = Date.parse('2026-11-24T03:00:00Z');
const TOMORROW_NOON = Date.parse('2026-11-25T04:00:00Z');
const slots = {
  asap: ASAP,
  days: [
    { date: '2026-11-24', label: '今天', slots: [Date.parse('2026-11-24T06:00:00Z')] },
    { date: '2026-11-25', label: '明天', slots: [TOMORROW_NOON, TOMORROW_NOON + 15 * 60_000] },
  ],
};

/** POST /payments answering no instructions (as an app flow would): the app shows the status. */
const payNothing = (orderNo: string): Record<string, Handler> => ({
  'POST /payments': () => ({
    paymentId: `pay_${orderNo}`,
    orderNo,
    orderId: 2,
    orderType: 0,
    method: 'alipay_wap',
    payAmount: 99.6,
    orderAmount: 99.6,
    alreadyPayAmount: 0,
    html: null,
    url: null,
    payInfo: null,
    signInfo: null,
    tn: null,
    unionPayParas: null,
    expiresAt: null,
  }),
  'GET /payments/:id': () => ({ paymentId: `pay_${orderNo}`, orderNo, state: 'pending', method: 'alipay_wap', amount: 99.6, failReason: null }),
});

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /me': () => me,
    'GET /addresses': () => [makeAddress({ id: 3, baseAddress: '上海市黄浦区南京东路1号', isDefault: false }), makeAddress({ isDefault: true })],
    'GET /cart': () => makeCart({ orderTime: ASAP }),
    'POST /cart/verify': () => ({ skipped: false, cart: makeCart({ orderTime: ASAP }) }),
    'GET /orders/reservation/slots': () => slots,
    ...over,
  });
}

function logIn() {
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
}

beforeEach(() => {
  resetApp();
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  useSelectedAddress.getState().clear();
  vi.unstubAllGlobals();
});

describe('/order/submit', () => {
  it('shows the cart, the default address, the time and the amounts', async () => {
    api();
    logIn();
    renderApp('/order/submit');
    const address = await screen.findByTestId('checkout-address');
    await waitFor(() => expect(address).toHaveTextContent('上海市黄浦区西藏中路236号 5楼501'));
    expect(address).toHaveTextContent('张三 13812345678');
    expect(screen.getByTestId('checkout-type-0')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('checkout-time-value')).toHaveTextContent('尽快送达 · 约11:00');
    expect(screen.getByTestId('cart-line-l_1')).toHaveTextContent('超级至尊比萨');
    expect(screen.getByTestId('cart-line-l_2')).toHaveTextContent('雪碧');
    // Each line at list price × quantity; the bill: products, each discount, fee, payable.
    expect(screen.getByTestId('cart-line-l_1')).toHaveTextContent('¥99.00 × 1');
    const amounts = screen.getByTestId('checkout-amounts');
    expect(within(amounts).getByTestId('breakdown-products')).toHaveTextContent('商品金额¥107.00');
    expect(within(amounts).getByTestId('breakdown-discount-R002')).toHaveTextContent('比萨8折-¥19.80');
    expect(within(amounts).getByTestId('breakdown-fee')).toHaveTextContent('配送费¥6.00');
    expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥93.20');
    expect(amounts).toHaveTextContent('再买¥11.80即可免配送费');
    // Pay on delivery for delivery orders.
    expect(screen.getByTestId('checkout-pay-offline')).toBeInTheDocument();
  });

  it('switches the order type through a reservation and shows the re-priced cart', async () => {
    let reserved: unknown = null;
    api({
      'POST /orders/reservation': (_u, init) => {
        reserved = json(init);
        return makeCart({ orderType: 1, orderTime: ASAP, deliveryFee: 0, deliveryFeeAfterPE: 0, orderAmount: 87.2, shoppingCarVersion: 4, breakdown: makeBreakdown({ deliveryFee: 0, payable: 87.2 }) });
      },
    });
    logIn();
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-type-1'));
    await waitFor(() => expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥87.20'));
    expect(reserved).toEqual({ orderType: 1, serviceMethod: 1, storeCode: 'SH001', isBookOrder: false });
    expect(screen.getByTestId('checkout-store')).toHaveTextContent('人民广场旗舰店');
    expect(screen.queryByTestId('checkout-pay-offline')).toBeNull();
    expect(screen.queryByTestId('checkout-contactless')).toBeNull();
  });

  it('books a slot tomorrow (isBookOrder true) and back to as soon as possible', async () => {
    const sent: unknown[] = [];
    api({
      'POST /orders/reservation': (_u, init) => {
        const b = json(init) as { isBookOrder: boolean; orderTime?: number };
        sent.push(b);
        return makeCart({ isBookOrder: b.isBookOrder, orderTime: b.orderTime ?? ASAP, shoppingCarVersion: 4 + sent.length });
      },
    });
    logIn();
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-time'));
    const picker = await screen.findByTestId('time-picker');
    await userEvent.click(within(picker).getByTestId('time-day-1'));
    await userEvent.click(within(picker).getByTestId('time-slot-1-0'));
    await waitFor(() => expect(screen.queryByTestId('time-picker')).toBeNull());
    expect(sent[0]).toEqual({ orderType: 0, serviceMethod: 0, storeCode: 'SH001', isBookOrder: true, orderTime: TOMORROW_NOON });
    expect(screen.getByTestId('checkout-time-value')).toHaveAttribute('data-book', 'true');
    expect(screen.getByTestId('checkout-time-value')).toHaveTextContent('12:00');
    await userEvent.click(screen.getByTestId('checkout-time'));
    await userEvent.click(await screen.findByTestId('time-asap'));
    await waitFor(() => expect(sent[1]).toEqual({ orderType: 0, serviceMethod: 0, storeCode: 'SH001', isBookOrder: false }));
  });

  it('offers no booking when the store takes none', async () => {
    api({ 'GET /orders/reservation/slots': () => ({ asap: ASAP, days: [] }) });
    logIn();
    renderApp('/order/submit');
    await screen.findByTestId('checkout-time-value');
    await waitFor(() => expect(screen.getByTestId('checkout-time')).toBeDisabled());
  });

  it('submits with an Idempotency-Key, the amounts and version shown, then shows the order status', async () => {
    let order: Record<string, unknown> | null = null;
    let key: string | undefined;
    api({
      'POST /orders': (_u, init) => {
        order = json(init) as Record<string, unknown>;
        key = headerOf(init, 'Idempotency-Key');
        return { orderNo: 'P20261124001', orderId: 1, orderAmount: 93.2, payable: 93.2, paymentType: 'offline', state: 7, orderType: 0, orderTime: ASAP };
      },
      'GET /orders/:no': () =>
        makeOrder({ orderTime: ASAP, isNeedInvoice: true, invoice: { kind: 'company', title: '上海某某科技有限公司', taxNo: '91310000MA1FL8XQ3K', email: 'fp@example.cn' } }),
    });
    logIn();
    renderApp('/order/submit');
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
    await userEvent.type(screen.getByTestId('checkout-remark'), '少放辣,谢谢$');
    await userEvent.click(screen.getByTestId('checkout-contactless'));
    await userEvent.click(screen.getByTestId('checkout-invoice'));
    await userEvent.click(screen.getByTestId('checkout-pay-offline'));
    // The invoice form is empty: submitting shows what to fill and sends nothing.
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(screen.getByTestId('invoice-error-title')).toHaveTextContent('请填写发票抬头');
    expect(screen.getByTestId('invoice-error-email')).toHaveTextContent('请填写接收电子发票的邮箱');
    expect(order).toBeNull();
    await userEvent.click(screen.getByTestId('invoice-kind-company'));
    expect(screen.getByTestId('invoice-error-taxNo')).toHaveTextContent('单位发票请填写税号');
    await userEvent.type(screen.getByTestId('invoice-title'), '上海某某科技有限公司');
    await userEvent.type(screen.getByTestId('invoice-taxno'), '91310000ma1fl8xq3');
    expect(screen.getByTestId('invoice-error-taxNo')).toHaveTextContent('税号须为15、18或20位数字或大写字母');
    await userEvent.type(screen.getByTestId('invoice-taxno'), 'k');
    expect(screen.queryByTestId('invoice-error-taxNo')).toBeNull();
    await userEvent.type(screen.getByTestId('invoice-email'), 'fp@example');
    expect(screen.getByTestId('invoice-error-email')).toHaveTextContent('发票邮箱格式错误');
    await userEvent.type(screen.getByTestId('invoice-email'), '.cn');
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P20261124001'));
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(order).toEqual({
      orderType: 0,
      isBookOrder: false,
      plannedDeliverTime: ASAP,
      consignAddressId: 7,
      receiverName: '张三',
      receiverMobile: '13812345678',
      deskNo: null,
      remark: '少放辣，谢谢',
      contactless: true,
      tableware: 1,
      isNeedInvoice: true,
      invoice: { kind: 'company', title: '上海某某科技有限公司', taxNo: '91310000MA1FL8XQ3K', email: 'fp@example.cn' },
      paymentType: 'offline',
      orderProductAmount: 107,
      activityAmount: 19.8,
      freightAmount: 6,
      orderAmount: 93.2,
      shoppingCarVersion: 3,
    });
    expect(await screen.findByTestId('order-state')).toHaveTextContent('货到付款');
    expect(screen.getByTestId('order-invoice')).toHaveTextContent('发票单位抬头上海某某科技有限公司税号91310000MA1FL8XQ3K邮箱fp@example.cn');
    expect(screen.getByTestId('order-no')).toHaveTextContent('P20261124001');
    expect(screen.getByTestId('order-store')).toHaveTextContent('人民广场旗舰店');
    expect(screen.getByTestId('order-lines')).toHaveTextContent('超级至尊比萨');
    expect(screen.getByTestId('order-address')).toHaveTextContent('上海市黄浦区西藏中路236号 5楼501');
    expect(screen.getByTestId('order-address')).toHaveTextContent('张三 138****5678');
    expect(screen.getByTestId('order-amount')).toHaveTextContent('93.20');
  });

  it('409 -6: shows the fresh cart with a toast, and the next submit sends the new amounts with a new key', async () => {
    const attempts: { key?: string; body: Record<string, unknown> }[] = [];
    const fresh = makeCart({
      orderTime: ASAP,
      shoppingCarVersion: 6,
      priceOfProduct: 115,
      discountAmount: 21.4,
      orderAmount: 99.6,
      breakdown: makeBreakdown({
        lines: [PIZZA_BILL_LINE, { ...DRINK_BILL_LINE, quantity: 2, amount: 16 }],
        discounts: [{ ...PIZZA_20_OFF, amount: 21.4 }],
        productAmount: 115,
        discountAmount: 21.4,
        payable: 99.6,
      }),
    });
    api({
      'POST /orders': (_u, init) => {
        attempts.push({ key: headerOf(init, 'Idempotency-Key'), body: json(init) as Record<string, unknown> });
        if (attempts.length === 1) return { status: 409, body: { errCode: '-6', errMsg: '订单金额有变化，请确认后重新提交', data: fresh } };
        return { orderNo: 'P2', orderId: 2, orderAmount: 99.6, payable: 99.6, paymentType: 'online', state: 5, orderType: 0, orderTime: ASAP };
      },
      'GET /orders/:no': () => makeOrder({ orderNo: 'P2', state: 5, paymentType: 'online', orderTime: ASAP, orderAmount: 99.6 }),
      ...payNothing('P2'),
    });
    logIn();
    renderApp('/order/submit');
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByText('订单金额有变化，请确认后重新提交')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥99.60'));
    expect(pathNow()).toBe('/order/submit');
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(6);
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P2&paymentId=pay_P2'));
    expect(attempts[0]?.body).toMatchObject({ orderAmount: 93.2, shoppingCarVersion: 3 });
    expect(attempts[1]?.body).toMatchObject({ orderAmount: 99.6, orderProductAmount: 115, activityAmount: 21.4, shoppingCarVersion: 6 });
    expect(attempts[1]?.key).not.toBe(attempts[0]?.key);
    expect(await screen.findByTestId('order-state')).toHaveTextContent('待支付');
    expect(screen.getByTestId('pay-pending')).toHaveTextContent('支付处理中...');
  });

  it('409 -7: names what sold out meanwhile and shows the fresh cart with it disabled; nothing is paid', async () => {
    const cola = makeCartItem({ id: 'l_cola', productCode: 'DR001', prodName: '可口可乐', productDisable: true, disableReason: 'soldOut', disableMsg: '已售罄' });
    const fresh = makeCart({ orderTime: ASAP, shoppingCarVersion: 7, saleOutItemsFromShoppingCar: [cola] });
    let payments = 0;
    api({
      'POST /orders': () => ({ status: 409, body: { errCode: '-7', errMsg: '商品已售罄：可口可乐', data: fresh } }),
      'POST /payments': () => {
        payments += 1;
        return { status: 500, body: 'no' };
      },
    });
    logIn();
    renderApp('/order/submit');
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByText('商品已售罄：可口可乐')).toBeInTheDocument();
    await waitFor(() => expect(useCart.getState().cart?.shoppingCarVersion).toBe(7));
    expect(pathNow()).toBe('/order/submit');
    expect(payments).toBe(0);
    // Checkout shows the sold-out line with its reason and a one-tap remove (issue 22).
    const off = await screen.findByTestId('cart-disabled-soldOut');
    expect(off).toHaveTextContent('可口可乐');
    expect(off).toHaveTextContent('已售罄');
    expect(within(off).getByTestId('cart-delete-l_cola')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-unavailable-note')).toHaveTextContent('失效商品不会下单');
  });

  it('retries the same body with the same key after a lost answer', async () => {
    const keys: (string | undefined)[] = [];
    api({
      'POST /orders': (_u, init) => {
        keys.push(headerOf(init, 'Idempotency-Key'));
        return keys.length === 1
          ? { status: 502, body: 'bad gateway' }
          : { orderNo: 'P3', orderId: 3, orderAmount: 93.2, payable: 93.2, paymentType: 'online', state: 5, orderType: 0, orderTime: ASAP };
      },
      'GET /orders/:no': () => makeOrder({ orderNo: 'P3', state: 5, paymentType: 'online', orderTime: ASAP }),
      ...payNothing('P3'),
    });
    logIn();
    renderApp('/order/submit');
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByText('服务器异常，请稍后再试!')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P3&paymentId=pay_P3'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('asks for an address for a delivery and picks it through /selectAddress', async () => {
    api({ 'GET /addresses': () => [] });
    logIn();
    renderApp('/order/submit');
    const address = await screen.findByTestId('checkout-address');
    expect(address).toHaveTextContent('请选择收货地址');
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByRole('status')).toHaveTextContent('请选择收货地址');
    await userEvent.click(address);
    expect(pathNow()).toBe('/selectAddress');
  });

  it('an address added while choosing from checkout is chosen at once, back on checkout', async () => {
    const added = makeAddress({ id: 41, baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼', name: '李四', phone: '13912345678', isDefault: false });
    const posted: unknown[] = [];
    api({
      'GET /addresses': () => [],
      'GET /geo/tips': () => [
        { id: 'p1', name: '来福士广场', address: '上海市黄浦区西藏中路236号', city: '上海市', cityCode: '021', district: '黄浦区', kind: 'poi', point: { lat: 31.2311, lng: 121.4737 } },
      ],
      'POST /addresses': (_u, init) => {
        posted.push(JSON.parse(String(init?.body)));
        return added;
      },
    });
    logIn();
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-address'));
    await userEvent.click(await screen.findByTestId('address-add'));
    expect(pathNow()).toBe('/address/add?pick=1');
    await userEvent.type(await screen.findByTestId('addr-name'), '李四');
    await userEvent.type(screen.getByTestId('addr-phone'), '13912345678');
    await userEvent.type(screen.getByTestId('addr-base'), '西藏中路');
    await userEvent.click(await screen.findByTestId('addr-tip-0', {}, { timeout: 3000 }));
    await userEvent.type(screen.getByTestId('addr-house'), '5楼');
    await userEvent.click(screen.getByTestId('addr-save'));
    await waitFor(() => expect(pathNow()).toBe('/order/submit'));
    expect(posted).toHaveLength(1);
    expect(useSelectedAddress.getState().address?.id).toBe(41);
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路236号'));
  });

  it('an empty cart cannot be checked out (-20)', async () => {
    api({ 'POST /cart/verify': () => ({ status: 400, body: { errCode: '-20', errMsg: '购物车为空，无法结算', data: null } }) });
    logIn();
    renderApp('/order/submit');
    expect(await screen.findByText('购物车为空，无法结算')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('checkout-back-menu'));
    expect(pathNow()).toBe('/menu');
  });
});

describe('/order/status', () => {
  it('shows an unpaid online order in English', async () => {
    api({
      'GET /orders/:no': () =>
        makeOrder({ orderNo: 'P9', state: 5, orderType: 1, orderTime: ASAP, isBookOrder: true, storeName: '', paymentType: 'online', address: null, orderAmount: 50 }),
    });
    logIn();
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/order/status?orderNo=P9');
    expect(await screen.findByTestId('order-state')).toHaveTextContent('Unpaid');
    expect(screen.getByTestId('order-store')).toHaveTextContent("People's Square Flagship");
    expect(screen.getByTestId('order-time')).toHaveTextContent('Booked for');
    expect(screen.queryByTestId('order-address')).toBeNull();
  });
});
