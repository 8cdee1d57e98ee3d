// Screenshots of every member page (issue 23) at 390×844 and 1280×800 in zh and en, into $OUT
// (default e2e/artifacts/member-shots), with the loyalty API answered by the contract's fixtures
// in the browser (page.route), so the pages can be looked at whatever the server holds. The real
// journey, against the real server, is e2e/member.test.mjs.
//   npm run build && node e2e/member-shots.mjs      (starts ../target/debug/pizza-order itself)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, call, logIn, openBrowser, register } from './browser.mjs';
import { startServer } from './server.mjs';

const out = process.env.OUT ?? join(ARTIFACTS, 'member-shots');
mkdirSync(out, { recursive: true });
const sizes = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const langs = ['zh', 'en'];
const DAY = 86_400_000;
const now = Date.now();

const words = {
  // The privileges as the server's seed words them (src/seed.rs): what the server gives.
  zh: { levels: ['普卡会员', '银卡会员', '金卡会员', '钻石会员'], earn: (n) => ['积分', `每消费 1 元得 ${n} 积分`], birthday: ['生日礼', '生日当月赠送马苏里拉芝士条一份（兑换券，每年一次，当月有效）'], delivery: ['免配送费', '每月两张免配送费券，外送订单可用，当月有效'], priority: ['优先制作', '您的订单在门店优先制作'], treat: '生日当月（3月）发放', points: '500积分', drink: '可乐一杯', pizza: '9英寸比萨一份', agreement: '会员协议' },
  en: { levels: ['Classic', 'Silver', 'Gold', 'Diamond'], earn: (n) => ['Points', `${n} point${n === 1 ? '' : 's'} for every yuan paid`], birthday: ['Birthday treat', 'Free Mozzarella Cheese Sticks in your birthday month (a voucher, once a year, valid that month)'], delivery: ['Free delivery', 'Two free-delivery coupons every month for delivery orders, valid that month'], priority: ['Priority', 'Your orders are made first at the store'], treat: 'Given in your birthday month (March)', points: '500 points', drink: 'A cola', pizza: 'A 9-inch pizza', agreement: 'Member agreement' },
};

function fixtures(lang) {
  const w = words[lang];
  const priv = (code, [name, description]) => ({ code, name, description });
  const levels = [
    { level: 1, name: w.levels[0], threshold: 0, pointsPerYuan: 1, privileges: [priv('points', w.earn(1))] },
    { level: 2, name: w.levels[1], threshold: 500, pointsPerYuan: 1, privileges: [priv('points', w.earn(1)), priv('birthday', w.birthday)] },
    { level: 3, name: w.levels[2], threshold: 2000, pointsPerYuan: 2, privileges: [priv('points', w.earn(2)), priv('birthday', w.birthday), priv('delivery', w.delivery)] },
    { level: 4, name: w.levels[3], threshold: 5000, pointsPerYuan: 3, privileges: [priv('points', w.earn(3)), priv('birthday', w.birthday), priv('delivery', w.delivery), priv('priority', w.priority)] },
  ];
  const member = {
    isLoyalty: true,
    loyaltyLevel: 2,
    levelName: w.levels[1],
    points: { available: 1280, pending: 93, expiringSoon: 200, expiringSoonAt: now + 20 * DAY },
    qualifyingSpend: 726.4,
    nextLevel: { level: 3, name: w.levels[2], threshold: 2000, remaining: 1273.6 },
    joinedAt: now - 40 * DAY,
    privileges: [{ ...priv('points', w.earn(1)), status: null }, { ...priv('birthday', w.birthday), status: w.treat }],
  };
  const options = [
    { optionId: 'o-points', type: 'points', points: 500, productCode: null, name: w.points },
    { optionId: 'o-drink', type: 'product', points: null, productCode: 'DR001', name: w.drink },
  ];
  const gifts = [
    { giftId: 'g-up2', kind: 'upgrade', level: 2, status: 'available', options: [options[0], { optionId: 'o-pizza', type: 'product', points: null, productCode: 'PZ001', name: w.pizza }], chosenOptionId: null, claimedAt: null, expiresAt: now + 25 * DAY },
    { giftId: 'g-welcome', kind: 'welcome', level: 1, status: 'available', options, chosenOptionId: null, claimedAt: null, expiresAt: now + 10 * DAY },
  ];
  const entry = (id, kind, businessType, businessId, points, daysAgo, extra = {}) => ({ id, kind, businessType, businessId, points, status: 'done', expiresAt: null, at: now - daysAgo * DAY, ...extra });
  const yearEnd = Date.UTC(new Date().getUTCFullYear() + 1, 11, 31, 15, 59, 59);
  const ledger = [
    entry(12, 'pending', 'order', 'P20261125000123', 93, 0.1, { status: 'pending' }),
    entry(11, 'spent', 'deduction', 'P20261124000088', -500, 1),
    entry(10, 'released', 'deduction', 'P20261123000051', 300, 2),
    entry(9, 'spent', 'deduction', 'P20261123000051', -300, 2),
    entry(8, 'earned', 'order', 'P20261120000007', 126, 5, { expiresAt: yearEnd }),
    entry(7, 'reversed', 'refund', 'P20261118000042', -58, 7),
    entry(6, 'earned', 'order', 'P20261118000042', 58, 9, { expiresAt: yearEnd }),
    entry(5, 'gift', 'gift', 'g-welcome', 500, 40, { expiresAt: yearEnd }),
    entry(4, 'expired', 'expiry', 'lot-3', -20, 41),
    entry(3, 'adjusted', 'adjustment', 'cs-77', 50, 42),
  ];
  const agreement = {
    version: '2026-11',
    title: w.agreement,
    content:
      lang === 'en'
        ? 'Article 1. Membership is free and open to every registered customer.\nArticle 2. Points are earned on completed orders, pending until the refund window closes, and expire at the end of the next year.\nArticle 3. Your level follows what you spent in the rolling twelve months.\nArticle 4. Points may pay part of an order at the published rate and cap.'
        : '第一条 会员免费加入，所有注册用户均可申请。\n第二条 积分于订单完成后获得，退款期结束后可用，有效期至次年年底。\n第三条 会员等级按滚动十二个月内的消费计算。\n第四条 积分可按公布的比例与上限抵扣部分订单金额。',
  };
  return { levels, member, gifts, ledger, agreement, history: [{ fromLevel: null, toLevel: 1, reason: 'join', at: now - 40 * DAY }, { fromLevel: 1, toLevel: 2, reason: 'upgrade', at: now - 3 * DAY }] };
}

const envelope = (data) => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ errCode: '00', errMsg: '', data }) });

async function mockLoyalty(page, lang, { member = true } = {}) {
  const f = fixtures(lang);
  await page.route('**/api/v1/members/**', (route) => {
    const url = new URL(route.request().url());
    const p = url.pathname.replace('/api/v1', '');
    if (p === '/members/me') return route.fulfill(envelope(member ? f.member : { isLoyalty: false, loyaltyLevel: null, levelName: null, points: { available: 0, pending: 0, expiringSoon: 0, expiringSoonAt: null }, qualifyingSpend: 0, nextLevel: null, joinedAt: null }));
    if (p === '/members/levels') return route.fulfill(envelope(f.levels));
    if (p === '/members/levels/history') return route.fulfill(envelope(f.history));
    if (p === '/members/gifts') return route.fulfill(envelope(f.gifts));
    if (p === '/members/agreement') return route.fulfill(envelope(f.agreement));
    return route.fulfill(envelope(null));
  });
  // GET /me agrees with the member detail (the server derives both from the same rows).
  await page.route(/\/api\/v1\/me(\?.*)?$/, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const res = await route.fetch();
    const body = await res.json();
    if (member && body.data) Object.assign(body.data, { isLoyalty: true, loyaltyLevel: 2, userfulPoint: 1280 });
    return route.fulfill({ response: res, body: JSON.stringify(body) });
  });
  await page.route('**/api/v1/points/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('/deduction-rule')) return route.fulfill(envelope({ pointsPerYuan: 100, maxShareOfOrder: 0.5, minPoints: 100 }));
    const kind = url.searchParams.get('kind') ?? 'all';
    const items = f.ledger.filter((e) => kind === 'all' || e.kind === kind || (kind === 'spent' && e.kind === 'spent'));
    return route.fulfill(envelope({ items, page: 1, pageSize: 20, total: items.length }));
  });
  // The cart answers gain the points line (until the server sends it).
  await page.route(/\/api\/v1\/cart(\/verify)?(\?.*)?$/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const cart = body.data?.cart ?? body.data;
    if (cart && typeof cart === 'object' && 'shoppingCarVersion' in cart && !('pointsDeduction' in cart && cart.pointsDeduction)) {
      const usable = Math.min(1280, Math.floor((Math.round(cart.orderAmount * 100) * 500) / 1000));
      cart.pointsDeduction = member ? { available: 1280, usablePoints: usable, amount: usable / 100 } : null;
    }
    return route.fulfill({ response: res, body: JSON.stringify(body) });
  });
}

const server = process.env.BASE ? null : await startServer();
const base = process.env.BASE ?? server.base;
try {
  const login = await register(base, `139${String(Date.now()).slice(-8)}`);
  await call(base, 'POST', '/cart/items', { token: login.token, body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] } });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token: login.token });
  const day = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  await call(base, 'POST', '/orders/reservation', { token: login.token, body: { storeCode: 'SH001', orderType: 1, orderTime: day.slots[0], isBookOrder: true } });

  const pages = [
    ['member-index', '/my/member/index', '[data-testid="member-card"]'],
    ['privilege', '/my/member/privilege', '[data-testid="level-2"]'],
    ['benefits', '/my/member/benefits', '[data-testid="benefits-mine"]'],
    ['notice', '/my/member/notice', '[data-testid="notice-levels"]'],
    ['select-gift', '/my/member/memberSelectGift', '[data-testid="gift-g-welcome"]'],
    ['promotion', '/my/member/promotionCeremony', '[data-testid="gift-g-up2"]'],
    ['points', '/my/integral/list', '[data-testid="points-list"]'],
    ['guide', '/memberPointdeduction', '[data-testid="guide-examples"]'],
    ['my', '/my', '[data-testid="my-member-centre"]'],
    ['checkout', '/order/submit', '[data-testid="points-toggle"]'],
  ];
  for (const size of sizes) {
    for (const lang of langs) {
      const tag = `${size.width}-${lang}`;
      for (const member of [true, false]) {
        const b = await openBrowser({ viewport: size });
        try {
          await logIn(b.page, base, login);
          await b.page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
          // No SMS-notification question over the pages.
          await b.page.evaluate(() => localStorage.setItem('pz:account:session', localStorage.getItem('pz:account:session')));
          await mockLoyalty(b.page, lang, { member });
          const list = member ? pages : [['join', '/addMember', '[data-testid="member-agreement"]'], ['my-guest', '/my', '[data-testid="member-invite"]'], ['checkout-guest', '/order/submit', '[data-testid="member-invite"]'], ['index-guest', '/my/member/index', '[data-testid="member-invite"]']];
          for (const [name, path, ready] of list) {
            await b.page.goto(base + path);
            await b.page.locator(ready).first().waitFor({ timeout: 15_000 });
            for (let i = 0; i < 3 && (await b.page.locator('.dlg-mask').count()) > 0; i++) {
              const no = b.page.getByTestId('marketing-no-remind');
              if (await no.count()) await no.check();
              await b.page.locator('.dlg-mask button').first().click();
              await b.page.waitForTimeout(300);
            }
            if (name === 'checkout') {
              await b.page.getByTestId('points-toggle-input').check();
            }
            if (name.startsWith('checkout')) await b.page.getByTestId('checkout-points').evaluate((el) => el.scrollIntoView({ block: 'center' }));
            if (name === 'select-gift') await b.page.getByTestId('gift-option-o-drink').click();
            if (name === 'join') await b.page.getByTestId('member-accept').check();
            await b.page.waitForTimeout(400);
            const full = size.width < 500 && !name.startsWith('checkout');
            await b.page.screenshot({ path: join(out, `${name}-${tag}.png`), fullPage: full });
          }
        } finally {
          if (b.problems.length) console.log(tag, member, b.problems);
          await b.close();
        }
      }
      console.log('shot', tag);
    }
  }
} finally {
  await server?.stop();
}
