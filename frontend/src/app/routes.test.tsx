import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useStoreSelection } from '@/features/store';
import { cities, districts, makeCart, makeMe, makeMenu, makeProduct, makeStore, virtualStore } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

const store = makeStore();

function api(over: Record<string, (url: URL, init?: RequestInit) => unknown> = {}) {
  return mockApi({
    'GET /system/page-switch': () => ({ grayPageList: [], use1i8n: true, productSearch: true }),
    'GET /stores/default': () => store,
    'GET /stores/:code': () => store,
    'GET /stores/:code/menu': () => makeMenu(),
    'GET /products/:code': () => makeProduct(),
    'GET /cities': () => cities,
    'GET /cities/:code/districts': () => districts,
    'GET /stores/search': (url) =>
      url.searchParams.get('districtCode') === '310104'
        ? [makeStore({ storeCode: 'SH002', storeName: '徐家汇店', storeNameCN: '徐家汇店', storeNameEN: 'Xujiahui', districtCode: '310104' })]
        : [store, makeStore({ storeCode: 'SH002', storeName: '徐家汇店', storeNameCN: '徐家汇店', storeNameEN: 'Xujiahui' })],
    ...over,
  });
}

beforeEach(() => resetApp());
afterEach(() => vi.unstubAllGlobals());

describe('/menu', () => {
  it('renders the categories and products of the current store from the api', async () => {
    const { calls } = api();
    renderApp('/menu');
    expect(await screen.findByTestId('category-PIZZA')).toHaveTextContent('比萨');
    expect(screen.getByTestId('category-DRINK')).toHaveTextContent('饮品');
    // Empty and gift categories stay hidden.
    expect(screen.queryByTestId('category-EMPTY')).toBeNull();
    expect(screen.queryByTestId('category-GIFT')).toBeNull();
    const pizza = screen.getByTestId('product-PZ001');
    expect(pizza).toHaveTextContent('超级至尊比萨');
    expect(within(pizza).getByLabelText('¥69.00起')).toBeInTheDocument();
    expect(screen.getByTestId('product-DR001')).toHaveTextContent('售罄');
    expect(screen.getByTestId('menu-store')).toHaveTextContent('人民广场旗舰店');
    // Order types from the store's service methods.
    expect(screen.getByTestId('order-type-0')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('order-type-2')).toBeInTheDocument();
    const menuCall = calls.find((c) => c.url.pathname === '/api/v1/stores/SH001/menu');
    expect(menuCall?.url.searchParams.get('orderType')).toBe('0');
    expect(menuCall?.headers['X-Channel-Id']).toBe('2');
  });

  it('keeps its place (scroll and category) while a product is open', async () => {
    api({ 'GET /products/:code': () => makeProduct() });
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    vi.stubGlobal('scrollY', 1234);
    const first = renderApp('/menu');
    await userEvent.click(await screen.findByTestId('category-DRINK'));
    await userEvent.click(screen.getByTestId('product-DR001'));
    await waitFor(() => expect(pathNow()).toBe('/product/DR001'));
    first.unmount();
    scrollTo.mockClear();
    renderApp('/menu');
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 1234));
    expect(screen.getByTestId('category-DRINK')).toHaveAttribute('aria-current', 'true');
  });

  it('switches the order type and asks for that menu', async () => {
    const { calls } = api();
    renderApp('/menu');
    await userEvent.click(await screen.findByTestId('order-type-1'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/menu') && c.url.searchParams.get('orderType') === '1')).toBe(true));
    expect(useStoreSelection.getState().orderType).toBe(1);
  });

  it('shows a closed store notice with a way to choose another store', async () => {
    api({ 'GET /stores/default': () => makeStore({ status: 'closed', bookEnable: false, stopStoreNotice: '设备检修，暂停营业' }) });
    renderApp('/menu');
    const notice = await screen.findByTestId('stop-store-notice');
    expect(notice).toHaveTextContent('门店休息中');
    expect(notice).toHaveTextContent('设备检修，暂停营业');
    // This store takes no bookings: only another store is offered.
    expect(notice).toHaveTextContent('现在无法下单，请换一家门店');
    expect(within(notice).queryByTestId('menu-book')).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: '重新选择门店' }));
    expect(pathNow()).toBe('/findStore');
  });

  it('tells the customer a virtual store shows a sample menu', async () => {
    api({ 'GET /stores/default': () => virtualStore });
    renderApp('/menu');
    expect(await screen.findByText('您还未选择门店，当前为示例菜单')).toBeInTheDocument();
    expect(useStoreSelection.getState().selected).toBeNull();
  });

  it('shows the menu error with a retry', async () => {
    let fail = true;
    api({ 'GET /stores/:code/menu': () => (fail ? { status: 500, body: { errCode: '500', errMsg: 'x', data: null } } : makeMenu()) });
    renderApp('/menu');
    expect(await screen.findByText('服务器异常，请稍后再试!')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: '重新加载' }));
    expect(await screen.findByTestId('category-PIZZA')).toBeInTheDocument();
  });

  it('opens ?productCode= as the product page', async () => {
    api();
    renderApp('/menu?productCode=PZ001');
    expect(await screen.findByTestId('product-name')).toHaveTextContent('超级至尊比萨');
    expect(pathNow()).toBe('/product/PZ001');
  });
});

describe('/product/:productCode', () => {
  it('follows the size with the price and offers crusts valid for the size, then adds it to the cart', async () => {
    let posted: unknown = null;
    api({
      'POST /cart/items': (_url: URL, init?: RequestInit) => {
        posted = JSON.parse(String(init?.body));
        return makeCart();
      },
    });
    renderApp('/product/PZ001');
    const price = await screen.findByTestId('builder-price');
    expect(price).toHaveAttribute('data-price', '¥69.00');
    expect(screen.queryByTestId('pastry-CHEESE')).toBeNull();
    await userEvent.click(screen.getByTestId('size-12'));
    expect(price).toHaveAttribute('data-price', '¥89.00');
    await userEvent.click(screen.getByTestId('pastry-CHEESE'));
    expect(price).toHaveAttribute('data-price', '¥109.00');
    // Back to 9": the cheese crust is not offered there, the default comes back.
    await userEvent.click(screen.getByTestId('size-9'));
    expect(price).toHaveAttribute('data-price', '¥69.00');
    await userEvent.click(within(screen.getByTestId('extra-X-CHEESE')).getByRole('button', { name: '增加' }));
    expect(price).toHaveAttribute('data-price', '¥79.00');
    // Quantity 2 doubles it.
    await userEvent.click(within(screen.getByRole('group', { name: '数量' })).getByRole('button', { name: '增加' }));
    expect(price).toHaveAttribute('data-price', '¥158.00');
    await userEvent.click(screen.getByTestId('add-to-cart'));
    expect(await screen.findByText('已加入购物车')).toBeInTheDocument();
    expect(posted).toEqual({
      storeCode: 'SH001',
      serviceMethod: 0,
      items: [
        {
          productCode: 'PZ001',
          selection: { sizeCode: '9', pastryCode: 'CLASSIC', flavorCodes: [], sauceCode: null, removedBase: [], extras: { 'X-CHEESE': 1 }, combo: {}, quantity: 2 },
        },
      ],
    });
    // Opened directly: back to the menu, where the cart bar is.
    await waitFor(() => expect(pathNow()).toBe('/menu'));
  });

  it('asks for both halves of a two-flavour pizza before adding', async () => {
    api({
      'GET /products/:code': () =>
        makeProduct({
          productCode: 'HF001',
          productType: 9,
          productName: '经典双拼比萨',
          sizeList: [
            { sizeCode: '12', sizeName: '12英寸', sizeNameEN: '12-inch', price: 79, isDefault: true },
            { sizeCode: '14', sizeName: '14英寸', sizeNameEN: '14-inch', price: 99, isDefault: false },
          ],
          flavorCount: 2,
          flavorList: [
            { flavorCode: 'F-P', flavorName: '意式香肠', flavorNameEN: 'Pepperoni', imageURL: '', prices: [{ sizeCode: '12', price: 85 }, { sizeCode: '14', price: 105 }] },
            { flavorCode: 'F-M', flavorName: '玛格丽特', flavorNameEN: 'Margherita', imageURL: '', prices: [{ sizeCode: '12', price: 79 }, { sizeCode: '14', price: 99 }] },
          ],
        }),
    });
    renderApp('/product/HF001');
    const price = await screen.findByTestId('builder-price');
    expect(screen.getByText('还需选择2种口味')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('flavour-F-M'));
    await userEvent.click(screen.getByTestId('flavour-F-P'));
    expect(price).toHaveAttribute('data-price', '¥85.00');
    await userEvent.click(screen.getByTestId('size-14'));
    expect(price).toHaveAttribute('data-price', '¥105.00');
    expect(screen.queryByText(/还需选择/)).toBeNull();
  });
});

describe('/findStore', () => {
  it('picks a city, a district and a store, remembers it and opens the menu', async () => {
    api();
    renderApp('/findStore');
    await userEvent.click(await screen.findByTestId('city-310100'));
    await userEvent.click(await screen.findByTestId('district-310104'));
    const card = await screen.findByTestId('store-SH002');
    expect(screen.queryByTestId('store-SH001')).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: '去点餐' }));
    expect(pathNow()).toBe('/menu');
    expect(useStoreSelection.getState().selected?.storeCode).toBe('SH002');
    expect(window.localStorage.getItem('pz:store:selected')).toContain('SH002');
  });
});

describe('/findStore near me', () => {
  const here = { point: { lng: 121.47, lat: 31.23 }, name: '人民广场', city: '上海', cityCode: '310100', district: '黄浦区', districtCode: '310101', province: '上海市', street: '', streetNumber: '', address: '人民大道120号', showName: '人民广场', pois: [] };

  function stubGeolocation(outcome: { lat: number; lng: number } | { code: number }) {
    const getCurrentPosition = vi.fn((ok: PositionCallback, fail?: PositionErrorCallback | null) => {
      if ('code' in outcome) fail?.({ code: outcome.code, message: 'denied' } as GeolocationPositionError);
      else ok({ coords: { latitude: outcome.lat, longitude: outcome.lng, accuracy: 20 } } as GeolocationPosition);
    });
    Object.defineProperty(window.navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    return getCurrentPosition;
  }

  it('locates by GPS, converts on the server and lists the nearest stores', async () => {
    stubGeolocation({ lat: 31.2290, lng: 121.4710 });
    const { calls } = api({
      'GET /geo/regeo': () => ({ ...here, locationType: 'gps' }),
      'GET /stores/nearby': () => [makeStore({ distance: '0.515', inRange: true })],
    });
    renderApp('/findStore?tab=near');
    await userEvent.click(await screen.findByTestId('locate-btn'));
    expect(await screen.findByTestId('store-SH001')).toHaveTextContent('0.515km');
    expect(screen.getByText('当前位置：人民广场')).toBeInTheDocument();
    const regeo = calls.find((c) => c.url.pathname.endsWith('/geo/regeo'));
    expect(regeo?.url.searchParams.get('coordType')).toBe('wgs84');
    expect(useStoreSelection.getState().gps?.storeCode).toBe('SH001');
  });

  it('falls back to the IP location when the customer refuses, and says why', async () => {
    const geo = stubGeolocation({ code: 1 });
    api({
      'GET /geo/ip': () => ({ ...here, name: '上海', showName: '上海', locationType: 'ip' }),
      'GET /stores/nearby': () => ({ status: 200, body: { errCode: '02', errMsg: '附近暂无门店', data: [makeStore({ distance: '3.2' })] } }),
    });
    renderApp('/findStore?tab=near');
    await userEvent.click(await screen.findByTestId('locate-btn'));
    expect(await screen.findByText('定位权限被拒绝，请在浏览器设置中允许定位，已使用网络大致位置')).toBeInTheDocument();
    // errCode "02" with a list still shows the list.
    expect(await screen.findByTestId('store-SH001')).toBeInTheDocument();
    expect(geo).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem('pz:loc:denied')).toContain('true');
  });
});

describe('current store', () => {
  it('refreshes a remembered store from the server', async () => {
    useStoreSelection.getState().selectStore(makeStore({ storeCode: 'SH002', storeName: '徐家汇店', storeNameCN: '徐家汇店' }));
    api({ 'GET /stores/:code': () => makeStore({ storeCode: 'SH002', storeName: '徐家汇店', storeNameCN: '徐家汇店', businessNotice: '今日新品上市' }) });
    renderApp('/menu');
    expect(await screen.findByText('今日新品上市')).toBeInTheDocument();
    expect(useStoreSelection.getState().selected?.businessNotice).toBe('今日新品上市');
  });

  it('forgets a remembered store the server no longer knows and falls back to the default', async () => {
    useStoreSelection.getState().selectStore(makeStore({ storeCode: 'GONE', storeName: '已关闭门店', storeNameCN: '已关闭门店' }));
    api({ 'GET /stores/:code': () => ({ status: 404, body: { errCode: '404', errMsg: '门店不存在', data: null } }) });
    renderApp('/menu');
    await waitFor(() => expect(useStoreSelection.getState().selected).toBeNull());
    expect(await screen.findByTestId('menu-store')).toHaveTextContent('人民广场旗舰店');
  });
});

describe('store notices', () => {
  it('shows a pop-up service notice once per session', async () => {
    api({ 'GET /stores/default': () => makeStore({ serviceNotice: { content: '今日外送较忙，请耐心等待', popUpModel: 1, leftBtn: null, rightBtn: '好的' } }) });
    const first = renderApp('/menu');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('今日外送较忙，请耐心等待');
    await userEvent.click(within(dialog).getByRole('button', { name: '好的' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    first.unmount();
    renderApp('/menu');
    await screen.findByTestId('category-PIZZA');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the marks per user per session: a logged-in user, another user and a new session see it again', async () => {
    const notice = { content: '今日外送较忙，请耐心等待', popUpModel: 1, leftBtn: null, rightBtn: '好的' };
    let me = makeMe({ id: 7, isRemindAgain: true });
    api({ 'GET /stores/default': () => makeStore({ serviceNotice: notice }), 'GET /me': () => me });
    const seeAndClose = async () => {
      const view = renderApp('/menu');
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('今日外送较忙，请耐心等待');
      await userEvent.click(within(dialog).getByRole('button', { name: '好的' }));
      view.unmount();
    };
    const notShown = async () => {
      const view = renderApp('/menu');
      await screen.findByTestId('category-PIZZA');
      expect(screen.queryByRole('dialog')).toBeNull();
      view.unmount();
    };
    await seeAndClose(); // the visitor
    await notShown();
    act(() => useAccount.getState().signIn({ token: 'tok-7', expiresAt: 0, newUser: false, user: me }));
    await seeAndClose(); // user 7: a different user from the visitor
    await notShown();
    me = makeMe({ id: 8, isRemindAgain: true });
    act(() => useAccount.getState().signIn({ token: 'tok-8', expiresAt: 0, newUser: false, user: me }));
    await seeAndClose(); // user 8
    await notShown();
    window.sessionStorage.clear(); // a new session
    await seeAndClose();
  });
});

describe('routing and language', () => {
  it('sends unknown paths home', async () => {
    api();
    renderApp('/no/such/page');
    expect(await screen.findByTestId('start-delivery')).toBeInTheDocument();
    expect(pathNow()).toBe('/');
  });

  it('sends a visitor of order submit (login required) to /login', async () => {
    api();
    renderApp('/order/submit?from=cart');
    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
    expect(pathNow()).toBe('/login');
  });

  it('switches to English from home and asks the server in English', async () => {
    const { calls } = api();
    renderApp('/');
    expect(await screen.findByText('外送到家')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('lang-switch'));
    expect(await screen.findByText('Delivery')).toBeInTheDocument();
    expect(window.localStorage.getItem('pz:lang')).toContain('en');
    await userEvent.click(screen.getByTestId('browse-menu'));
    await screen.findByTestId('category-PIZZA');
    const menuCall = calls.filter((c) => c.url.pathname.endsWith('/menu')).at(-1);
    expect(menuCall?.headers['Accept-Language']).toBe('en');
  });

  it('hides needLogin entries from a guest in the side navigation', async () => {
    api();
    renderApp('/');
    await userEvent.click(await screen.findByTestId('open-nav'));
    const nav = screen.getByTestId('side-nav');
    expect(within(nav).getByTestId('nav-menu')).toBeInTheDocument();
    expect(within(nav).queryByTestId('nav-orders')).toBeNull();
    expect(within(nav).queryByTestId('nav-my')).toBeNull();
    await act(async () => {
      await userEvent.click(within(nav).getByTestId('nav-findStore'));
    });
    expect(pathNow()).toBe('/findStore');
  });
});
