// The API calls the HTTP and end-to-end benchmarks make to set themselves up, the way the app
// makes them: a customer registered with a code read from the sandbox SMS outbox, a cart of a
// 12" pizza and two colas for pickup at SH001, booked for tomorrow (so it works at any hour of
// the day: the store's hours end at 23:59 China time), submitted as an order, paid through the
// sandbox provider. Node's own fetch; nothing to install.

/** One API call; throws with the server's message unless errCode is "00". Answers `data`. */
export async function call(base, method, path, { token, body, headers = {} } = {}) {
  const h = { 'X-Channel-Id': '2', 'Accept-Language': 'zh', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  }
  if (json.errCode !== '00') throw new Error(`${method} ${path}: ${res.status} ${json.errCode} ${json.errMsg}`);
  return json.data;
}

/** A new customer; answers the login reply ({ token, user }). */
export async function register(base, phone) {
  await call(base, 'POST', '/auth/sms-code', { body: { cellPhone: phone, scene: 'register' } });
  const outbox = await call(base, 'GET', `/dev/sms-outbox?cellPhone=${phone}`);
  const code = outbox[0].text.match(/\d{6}/)[0];
  return call(base, 'POST', '/auth/register', { body: { cellPhone: phone, smsCode: code, password: 'Pizza2026ok', privacyAgreed: true } });
}

/** A phone number nobody else in this database has: 139, then 8 digits from `n` and the run. */
export function phoneNumber(run, n) {
  return `139${String((run * 1000 + n) % 100_000_000).padStart(8, '0')}`;
}

/** The first bookable pickup time tomorrow at the store (cached per base: the same all run). */
const slotCache = new Map();
async function tomorrowSlot(base, token, store) {
  const key = `${base} ${store}`;
  if (!slotCache.has(key)) {
    const slots = await call(base, 'GET', `/orders/reservation/slots?storeCode=${store}&orderType=1`, { token });
    const day = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
    if (!day) throw new Error(`${store} takes no booking for tomorrow`);
    slotCache.set(key, day.slots[0]);
  }
  return slotCache.get(key);
}

/** Fills the customer's cart and submits it; answers { orderNo, submitMs }: submitMs is the
 *  submit call alone. `key` is the Idempotency-Key. */
export async function placeOrder(base, token, key, { store = 'SH001' } = {}) {
  return submitCart(base, token, key, await fillCart(base, token, { store }));
}

/** Puts `pizzas` 12" pizzas (1) and two colas in the cart, booked for pickup tomorrow;
 *  answers the cart. */
export async function fillCart(base, token, { store = 'SH001', pizzas = 1 } = {}) {
  let cart = await call(base, 'POST', '/cart/items', {
    token,
    body: {
      storeCode: store,
      items: [{ productCode: 'PZ001', quantity: pizzas, selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }],
    },
  });
  const orderTime = await tomorrowSlot(base, token, store);
  // The cart keeps its booking after a submit; choosing it again within 380 ms is refused as
  // a repeat (429), so it is chosen only when the cart does not hold it already.
  for (let tries = 0; !(cart.isBookOrder && cart.orderType === 1 && cart.orderTime === orderTime); tries++) {
    try {
      cart = await call(base, 'POST', '/orders/reservation', {
        token,
        body: { storeCode: store, orderType: 1, orderTime, isBookOrder: true },
      });
    } catch (e) {
      if (tries >= 3 || !String(e.message).includes(' 429 ')) throw e;
      await new Promise((r) => setTimeout(r, 400));
    }
  }
  return cart;
}

/** Submits the cart (as `fillCart` answered it), spending `points` and the coupons the cart
 *  chose (`osCoupons`); answers { orderNo, submitMs }. */
export async function submitCart(base, token, key, cart, { points = 0 } = {}) {
  const body = {
    orderType: cart.orderType, isBookOrder: cart.isBookOrder, plannedDeliverTime: cart.orderTime,
    receiverName: 'Bench', receiverMobile: '13900000000', remark: '', tableware: 1, isNeedInvoice: false,
    paymentType: 'online', orderProductAmount: cart.priceOfProduct, activityAmount: cart.discountAmount,
    freightAmount: cart.deliveryFeeAfterPE, orderAmount: cart.orderAmount, shoppingCarVersion: cart.shoppingCarVersion,
    osCoupons: cart.osCoupons ?? [], pointsDeductions: points,
  };
  const started = performance.now();
  const order = await call(base, 'POST', '/orders', { token, body, headers: { 'Idempotency-Key': key } });
  return { orderNo: order.orderNo, submitMs: performance.now() - started };
}

/** Creates a payment attempt with the sandbox provider; answers its paymentId. */
export async function createPayment(base, token, orderNo, key) {
  const created = await call(base, 'POST', '/payments', {
    token,
    body: { orderNo, method: 'alipay_wap' },
    headers: { 'Idempotency-Key': key },
  });
  return created.paymentId;
}

/** The payer presses Pay at the sandbox cashier: the sandbox settles, then sends its notify. */
export async function sandboxPay(base, paymentId) {
  const res = await fetch(`${base}/sandbox/api/pay/${paymentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'success' }),
  });
  if (!res.ok) throw new Error(`sandbox pay ${paymentId}: ${res.status} ${await res.text()}`);
}

/** The customer of `phone` made a club member with `points` and `coupons` coupons of
 *  `template`, by the chain's operations API (`opsToken`): what the loyalty variant of the
 *  benchmarks spends, an order at a time. */
export async function makeMember(base, token, phone, opsToken, { points, template, coupons }) {
  const { version } = await call(base, 'GET', '/members/agreement');
  await call(base, 'POST', '/members/join', { token, body: { agreementVersion: version } });
  await call(base, 'POST', '/chain/points/adjust', {
    token: opsToken,
    body: { cellPhone: phone, points, reason: 'bench', requestId: `bench-points-${phone}` },
  });
  for (let issued = 0, n = 0; issued < coupons; n++) {
    const count = Math.min(100, coupons - issued);
    await call(base, 'POST', '/chain/coupons/issue', {
      token: opsToken,
      body: { templateCode: template, cellPhone: phone, count, requestId: `bench-coupons-${phone}-${n}` },
    });
    issued += count;
  }
}
