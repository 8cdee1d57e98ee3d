import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useCart } from '@/features/cart';
import { useStoreSelection } from '@/features/store';
import { apiGet, getCartToken } from '@/lib/api';
import { drinkLine, emptyCart, makeBreakdown, PIZZA_BILL_LINE, DRINK_BILL_LINE, PIZZA_20_OFF, makeCard, makeCart, makeCartItem, makeMe, makeMenu, makeRule, makeStore } from '@/test/fixtures';
import { lastSocket } from '@/test/fakeSocket';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';


const menu = makeMenu({
  categories: [
    { categoryCode: 'PIZZA', categoryName: '比萨', categoryNameCN: '比萨', categoryNameEN: 'Pizzas', sort: 20, products: [makeCard()] },
    {
      categoryCode: 'DRINK',
      categoryName: '饮品',
      categoryNameCN: '饮品',
      categoryNameEN: 'Drinks',
      sort: 60,
      products: [
        makeCard({ productCode: 'DR002', categoryCode: 'DRINK', productName: '雪碧', productType: 0, sellingPrice: 8 }),
        makeCard({ productCode: 'DR001', categoryCode: 'DRINK', productName: '可口可乐', productType: 0, sellingPrice: 8, soldOut: true }),
        makeCard({ productCode: 'JU001', categoryCode: 'DRINK', productName: '鲜榨橙汁', productType: 7, sellingPrice: 18 }),
      ],
    },
  ],
});

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /stores/:code/menu': () => menu,
    'GET /cart': () => emptyCart({ cartToken: 'c_visitor' }),
    ...over,
  });
}

const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);

/** Holds every POST answer of the mocked api until `release()` (an action still in flight). */
function holdPosts() {
  const fetchMock = vi.mocked(fetch);
  const answer = fetchMock.getMockImplementation();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  fetchMock.mockImplementation(async (input, init) => {
    if ((init?.method ?? 'GET') === 'POST') await gate;
    return answer ? answer(input, init) : new Response('');
  });
  return release;
}

beforeEach(() => resetApp());
afterEach(() => {
  vi.unstubAllGlobals();
  act(() => useAccount.getState().signOut());
});

describe('the cart bar on /menu', () => {
  it('reads the cart of the store shown and keeps the visitor token', async () => {
    const { calls } = api();
    renderApp('/menu');
    expect(await screen.findByText('购物车是空的')).toBeInTheDocument();
    const read = calls.find((c) => c.url.pathname === '/api/v1/cart');
    expect(read?.url.searchParams.get('pageName')).toBe('menu');
    expect(read?.url.searchParams.get('storeCode')).toBe('SH001');
    expect(getCartToken()).toBe('c_visitor');
  });

  it('quick-adds a product without choices (once per tap), not one with sizes or sold out', async () => {
    let added: unknown = null;
    let posts = 0;
    const { calls } = api({
      'POST /cart/items': (_u, init) => {
        posts += 1;
        added = json(init);
        return makeCart({ items: [drinkLine()], totalQuantity: 1, priceOfProduct: 8, priceOfProductAfterPE: 8, discountAmount: 0, orderAmount: 14, cartToken: 'c_visitor' });
      },
    });
    renderApp('/menu');
    await screen.findByText('购物车是空的');
    expect(screen.queryByTestId('product-DR001-add')).toBeNull();
    expect(screen.queryByTestId('product-JU001-add')).toBeNull();
    expect(screen.queryByTestId('product-PZ001-add')).toBeNull();
    const add = screen.getByRole('button', { name: '加入购物车：雪碧' });
    // A double tap: the second tap is refused while the first is in flight.
    const release = holdPosts();
    await userEvent.dblClick(add);
    release();
    expect(await screen.findByText('已加入购物车')).toBeInTheDocument();
    expect(posts).toBe(1);
    expect(added).toEqual({
      storeCode: 'SH001',
      serviceMethod: 0,
      items: [{ productCode: 'DR002', selection: { sizeCode: null, pastryCode: null, flavorCodes: [], sauceCode: null, removedBase: [], extras: {}, combo: {}, quantity: 1 } }],
    });
    expect(calls.find((c) => c.method === 'POST')?.headers['X-Cart-Token']).toBe('c_visitor');
    expect(screen.getByTestId('cart-count')).toHaveTextContent('1');
    expect(screen.getByTestId('cart-bar-amount')).toHaveAttribute('data-amount', '¥8.00');
    expect(screen.getByTestId('cart-bar')).toHaveTextContent('另需配送费¥6.00');
  });

  it('shows the delivery-fee gap and the spec §8 hints instead of checking out', async () => {
    let cart = emptyCart();
    api({ 'GET /cart': () => cart });
    renderApp('/menu');
    await screen.findByText('购物车是空的');
    await userEvent.click(screen.getByTestId('cart-checkout'));
    expect(await screen.findByRole('status')).toHaveTextContent('购物车为空，无法结算');
    expect(pathNow()).toBe('/menu');

    cart = emptyCart({ saleOutItemsFromShoppingCar: [makeCartItem({ disableReason: 'soldOut', disableMsg: '已售罄' })], shoppingCarVersion: 2 });
    await act(async () => {
      await useCart.getState().load();
    });
    await userEvent.click(screen.getByTestId('cart-checkout'));
    expect(await screen.findByRole('status')).toHaveTextContent('购物车中没有有效商品');

    cart = makeCart({ shoppingCarVersion: 3 });
    await act(async () => {
      await useCart.getState().load();
    });
    expect(screen.getByTestId('cart-delivery-gap')).toHaveTextContent('再买¥11.80即可免配送费');
  });

  it('says the cart is not loaded when its read failed', async () => {
    api({ 'GET /cart': () => ({ status: 500, body: { errCode: '500', errMsg: 'x', data: null } }) });
    renderApp('/menu');
    expect(await screen.findByText('购物车加载失败，点击重试')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('cart-checkout'));
    expect(await screen.findByRole('status')).toHaveTextContent('购物车尚未加载，请稍后再试');
  });

  it('checks the cart with the server, then order submit asks a visitor to log in', async () => {
    let verified: unknown = null;
    api({
      'GET /cart': () => makeCart(),
      'POST /cart/verify': (_u, init) => {
        verified = json(init);
        return { skipped: false, cart: makeCart() };
      },
    });
    renderApp('/menu');
    await userEvent.click(await screen.findByTestId('cart-checkout'));
    await waitFor(() => expect(pathNow()).toBe('/login'));
    expect(verified).toEqual({ pageType: 'orderSubmit' });
  });

  it('re-reads the cart when another tab changes it (cart:updated above our version)', async () => {
    let cart = makeCart({ shoppingCarVersion: 3 });
    api({ 'GET /cart': () => cart });
    renderApp('/menu');
    await waitFor(() => expect(screen.getByTestId('cart-count')).toHaveTextContent('2'));
    cart = makeCart({ shoppingCarVersion: 4, items: [drinkLine({ quantity: 3 })], totalQuantity: 3 });
    act(() => lastSocket('/').serverEmit('cart:updated', { version: 4 }));
    await waitFor(() => expect(screen.getByTestId('cart-count')).toHaveTextContent('3'));
  });
});

describe('the cart sheet', () => {
  const full = () =>
    makeCart({
      items: [makeCartItem({ quantity: 2, countPrice: 198, countPriceAfterPE: 158.4 }), drinkLine()],
      totalQuantity: 3,
      saleOutItemsFromShoppingCar: [makeCartItem({ id: 'l_9', prodName: '金枕榴莲比萨', disableReason: 'soldOut', disableMsg: '已售罄' })],
      timeOutItems: [drinkLine({ id: 'l_8', prodName: '午市超值餐', disableReason: 'offTime', disableMsg: '非售卖时间' })],
      availableRules: [
        makeRule({ ruleId: 'R001', ruleName: '周二比萨日：12寸比萨59.9元', ruleType: 'fixedPrice', description: '每周二，12寸比萨一律59.9元', applied: false, discountAmount: 78.2, reason: 'mutex', excludedBy: 'R002' }),
        makeRule({ ruleId: 'R002', ruleName: '比萨8折', description: '经典比萨享8折', discountAmount: 39.6, savedAmount: 39.6 }),
        makeRule({ ruleId: 'R005', ruleName: '外送满150减20', ruleType: 'fullReduction', applied: false, reason: 'belowThreshold', gap: 28.6 }),
      ],
      ruleMutexBeans: [{ mutexDetails: [{ ruleId: 'R001' }, { ruleId: 'R002' }] }],
      breakdown: makeBreakdown({
        lines: [{ ...PIZZA_BILL_LINE, quantity: 2, amount: 198 }, DRINK_BILL_LINE],
        discounts: [{ ...PIZZA_20_OFF, amount: 39.6 }],
        productAmount: 206,
        discountAmount: 39.6,
        payable: 172.4,
      }),
    });

  it('lists lines with options, promotions, disabled items by reason; edits them', async () => {
    const sent: { route: string; body: unknown }[] = [];
    const reply = (route: string) => (_u: URL, init?: RequestInit) => {
      sent.push({ route, body: json(init) });
      return full();
    };
    api({
      'GET /cart': () => full(),
      'PATCH /cart/items': reply('PATCH'),
      'DELETE /cart/items': reply('DELETE'),
      'POST /cart/rules': reply('RULE'),
      'POST /cart/clear-unavailable': (u, init) => {
        reply('CLEAR')(u, init);
        return { ...full(), saleOutItemsFromShoppingCar: [], timeOutItems: [] };
      },
    });
    renderApp('/menu');
    await userEvent.click(await screen.findByTestId('cart-bar-open'));
    const sheet = await screen.findByTestId('cart-sheet');
    const pizza = within(sheet).getByTestId('cart-line-l_1');
    expect(pizza).toHaveTextContent('超级至尊比萨');
    expect(within(pizza).getByTestId('cart-options-l_1')).toHaveTextContent('12英寸 · 经典手拍 · 加芝士 · 去火腿');
    // The line at its list amount (unit × quantity); the discount is its own row, never a price.
    expect(within(pizza).getByLabelText('¥198.00')).toBeInTheDocument();
    expect(within(pizza).queryByLabelText('¥158.40')).toBeNull();
    expect(pizza).toHaveTextContent('¥99.00 × 2');
    expect(within(sheet).getByTestId('cart-rule-R002')).toHaveTextContent('比萨8折-¥19.80');
    // Why the other offers do not apply, and how much more for the reduction.
    expect(within(sheet).getByTestId('cart-rule-why-R001')).toHaveTextContent('已为您选用更优惠的「比萨8折」');
    expect(within(sheet).getByTestId('cart-rule-gap-R005')).toHaveTextContent('再买¥28.60可享「外送满150减20」');
    // The bill adds up: ¥206.00 − ¥39.60 + ¥6.00 = ¥172.40.
    const bill = within(sheet).getByTestId('cart-breakdown');
    expect(within(bill).getByTestId('breakdown-products')).toHaveTextContent('商品金额¥206.00');
    expect(within(bill).getByTestId('breakdown-discount-R002')).toHaveTextContent('比萨8折-¥39.60');
    expect(within(bill).getByTestId('breakdown-fee')).toHaveTextContent('¥6.00');
    expect(within(bill).getByTestId('breakdown-payable')).toHaveAttribute('data-amount', '¥172.40');
    // Disabled items, grouped with their reasons.
    expect(within(sheet).getByTestId('cart-disabled-soldOut')).toHaveTextContent('已售罄 · 1');
    expect(within(sheet).getByTestId('cart-disabled-soldOut')).toHaveTextContent('金枕榴莲比萨');
    expect(within(sheet).getByTestId('cart-disabled-offTime')).toHaveTextContent('非售卖时间 · 1');

    await userEvent.click(within(pizza).getByRole('button', { name: '增加' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    await userEvent.click(within(pizza).getByRole('button', { name: '减少' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    await userEvent.click(within(sheet).getByTestId('cart-delete-l_2'));
    await waitFor(() => expect(sent).toHaveLength(3));
    // The mutex choice: R002 is in force, choose R001.
    expect(within(sheet).getByTestId('cart-rule-option-R002')).toBeChecked();
    await userEvent.click(within(sheet).getByTestId('cart-rule-option-R001'));
    await waitFor(() => expect(sent).toHaveLength(4));
    await userEvent.click(within(sheet).getByTestId('cart-clear-unavailable'));
    await waitFor(() => expect(screen.queryByTestId('cart-disabled')).toBeNull());
    expect(sent).toEqual([
      { route: 'PATCH', body: { items: [{ id: 'l_1', action: 'increase' }] } },
      { route: 'PATCH', body: { items: [{ id: 'l_1', action: 'decrease' }] } },
      { route: 'DELETE', body: { items: [{ id: 'l_2' }] } },
      { route: 'RULE', body: { ruleId: 'R001' } },
      { route: 'CLEAR', body: null },
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('已清空失效商品');
  });

  it('empties the cart after a confirmation', async () => {
    let cleaned = false;
    api({
      'GET /cart': () => makeCart(),
      'DELETE /cart': () => {
        cleaned = true;
        return emptyCart({ shoppingCarVersion: 9 });
      },
    });
    renderApp('/menu');
    await userEvent.click(await screen.findByTestId('cart-bar-open'));
    await userEvent.click(screen.getByTestId('cart-clean'));
    await userEvent.click(within(screen.getByRole('dialog', { name: '清空购物车' })).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(cleaned).toBe(true));
    expect(await screen.findByText('购物车是空的')).toBeInTheDocument();
    expect(screen.queryByTestId('cart-sheet')).toBeNull();
  });

  it('in English', async () => {
    api({ 'GET /cart': () => full() });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/menu');
    await userEvent.click(await screen.findByTestId('cart-bar-open'));
    const sheet = await screen.findByTestId('cart-sheet');
    expect(within(sheet).getByTestId('cart-disabled-offTime')).toHaveTextContent('Not on sale at this time');
    expect(within(sheet).getByText('Clear unavailable items')).toBeInTheDocument();
    expect(screen.getByTestId('cart-checkout')).toHaveTextContent('Checkout');
  });
});

describe('order type and login', () => {
  it('a switch of the menu order type is a reservation', async () => {
    let reserved: unknown = null;
    api({
      'GET /cart': () => makeCart(),
      'POST /orders/reservation': (_u, init) => {
        reserved = json(init);
        return makeCart({ orderType: 1, shoppingCarVersion: 4, deliveryFeeAfterPE: 0, differenceDeliveryFeeMsg: null });
      },
    });
    renderApp('/menu');
    await screen.findByTestId('cart-count');
    await userEvent.click(screen.getByTestId('order-type-1'));
    await waitFor(() => expect(reserved).toEqual({ orderType: 1, serviceMethod: 1, storeCode: 'SH001', isBookOrder: false }));
    await waitFor(() => expect(useCart.getState().cart?.orderType).toBe(1));
    expect(screen.queryByTestId('cart-delivery-gap')).toBeNull();
  });

  it('a login forgets the visitor token and re-reads the merged cart as the user', async () => {
    const { calls } = api({ 'GET /cart': (_u) => (calls.some((c) => c.headers.Authorization) ? makeCart({ shoppingCarVersion: 1 }) : emptyCart({ cartToken: 'c_visitor', shoppingCarVersion: 5 })), 'GET /me': () => makeMe() });
    renderApp('/menu');
    await screen.findByText('购物车是空的');
    expect(getCartToken()).toBe('c_visitor');
    act(() => useAccount.getState().signIn({ token: 'tok-1', expiresAt: 0, newUser: false, user: makeMe() }));
    await waitFor(() => expect(screen.getByTestId('cart-count')).toHaveTextContent('2'));
    expect(getCartToken()).toBeNull();
    const last = calls.filter((c) => c.url.pathname === '/api/v1/cart').at(-1);
    expect(last?.headers.Authorization).toBe('Bearer tok-1');
    expect(last?.headers['X-Cart-Token']).toBeUndefined();
  });
});

describe('logout', () => {
  it('forgets the user cart and reads a visitor cart again', async () => {
    act(() => useAccount.getState().signIn({ token: 'tok-1', expiresAt: 0, newUser: false, user: makeMe() }));
    const { calls } = api({ 'GET /cart': () => (calls.at(-1)?.headers.Authorization ? makeCart() : emptyCart({ cartToken: 'c_new' })), 'GET /me': () => makeMe() });
    renderApp('/menu');
    await waitFor(() => expect(screen.getByTestId('cart-count')).toHaveTextContent('2'));
    act(() => useAccount.getState().signOut());
    expect(await screen.findByText('购物车是空的')).toBeInTheDocument();
    expect(getCartToken()).toBe('c_new');
  });
});

describe('scan to order', () => {
  it('verifies the table link, makes the store the scanned one for dine-in at that desk', async () => {
    let scanned: unknown = null;
    let reserved = false;
    const { calls } = api({
      'POST /orders/reservation': () => {
        reserved = true;
        return emptyCart();
      },
      'POST /orders/scan': (_u, init) => {
        scanned = json(init);
        return { storeCode: 'SH001', storeName: '人民广场旗舰店', deskNo: 'A12', expiresAt: Date.now() + 3600_000, cart: emptyCart({ orderType: 2, deskNo: 'A12' }) };
      },
      'GET /cart': () => emptyCart({ orderType: 2, deskNo: 'A12' }),
    });
    // A store chosen before (known at once): the scanned one comes first.
    useStoreSelection.getState().selectStore(makeStore());
    renderApp('/menu?storeName=%E4%BA%BA%E6%B0%91%E5%B9%BF%E5%9C%BA%E6%97%97%E8%88%B0%E5%BA%97&storeCode=SH001&deskNo=A12&sign=abc123');
    expect(await screen.findByTestId('desk-no')).toHaveTextContent('桌号 A12');
    expect(scanned).toEqual({ storeName: '人民广场旗舰店', storeCode: 'SH001', deskNo: 'A12', sign: 'abc123' });
    expect(pathNow()).toBe('/menu');
    const state = useStoreSelection.getState();
    expect(state.scanned?.storeCode).toBe('SH001');
    expect(state.scan).toMatchObject({ deskNo: 'A12', sign: 'abc123' });
    expect(state.orderType).toBe(2);
    // Dine-in only while scanned.
    expect(screen.getByTestId('order-type-2')).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByTestId('order-type-0')).toBeNull();
    // The cart stays dine-in: the menu never switched it back while the link was checked.
    expect(reserved).toBe(false);
    // Scan-to-order is the subchannel ORDER_QR (spec account §1) while the scan lasts.
    const after = calls.filter((c) => c.url.pathname !== '/api/v1/orders/scan').at(-1);
    expect(after?.headers['X-Sub-Channel-Code']).toBe('ORDER_QR');
    act(() => useStoreSelection.getState().setScanned(null));
    const { calls: later } = api({ 'GET /system/time': () => ({ serverTime: Date.now() }) });
    await apiGet('/system/time');
    expect(later.at(-1)?.headers['X-Sub-Channel-Code']).toBeUndefined();
  });

  it('says why a bad link is refused and shows the menu without it', async () => {
    const { calls } = api({ 'POST /orders/scan': () => ({ status: 400, body: { errCode: '400', errMsg: '无效的桌台二维码', data: null } }) });
    renderApp('/menu?storeName=x&storeCode=SH001&deskNo=A12&sign=bad');
    expect(await screen.findByText('无效的桌台二维码')).toBeInTheDocument();
    await waitFor(() => expect(pathNow()).toBe('/menu'));
    expect(useStoreSelection.getState().scanned).toBeNull();
    expect(await screen.findByTestId('order-type-0')).toBeInTheDocument();
    // No table, no subchannel.
    expect(calls.filter((c) => c.headers['X-Sub-Channel-Code'])).toEqual([]);
  });
});
