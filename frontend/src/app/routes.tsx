import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router';
import { GuestOnly, RequireLogin, useAccount, type VisitorKind } from '@/features/account';
import { showsCoupons } from '@/lib/channel';
import { loadPageWords } from '@/lib/i18n';
import { AppLayout } from './layout/AppLayout';
import { TabletLayout } from './layout/TabletLayout';
import { lazyRoute, prefetchWhenIdle } from './lazyRoute';
import { HomeRoute } from './routes/HomeRoute';

// Route chunks (frontend/README.md "Chunks"): the home page is in the entry chunk; each group
// below is fetched the first time one of its pages is shown, and the ordering path (menu, product,
// search, store finder) and the pages' words as soon as the home page is idle, so its first tap
// does not wait. The budget script (scripts/bundle-budget.mjs) weighs the home page's first load.
const menu = () => import('./routes/MenuRoute');
const MenuRoute = lazyRoute(menu, 'MenuRoute');
const product = () => import('./routes/ProductRoute');
const ProductRoute = lazyRoute(product, 'ProductRoute');
const search = () => import('./routes/SearchRoute');
const SearchRoute = lazyRoute(search, 'SearchRoute');
const findStore = () => import('./routes/FindStoreRoute');
const FindStoreRoute = lazyRoute(findStore, 'FindStoreRoute');
const ORDERING_PATH = [menu, product, search, findStore, loadPageWords];

const tablet = () => import('./routes/TabletRoutes');
const TabletBoardRoute = lazyRoute(tablet, 'TabletBoardRoute');
const TabletLoginRoute = lazyRoute(tablet, 'TabletLoginRoute');

const account = () => import('./routes/AccountRoutes');
const MyRoute = lazyRoute(account, 'MyRoute');
const CancellationRoute = lazyRoute(account, 'CancellationRoute');
const AddressListRoute = lazyRoute(account, 'AddressListRoute');
const AddressFormRoute = lazyRoute(account, 'AddressFormRoute');
const LoginPage = lazyRoute(account, 'LoginPage');
const RegisterPage = lazyRoute(account, 'RegisterPage');
const ResetPasswordPage = lazyRoute(account, 'ResetPasswordPage');
const PolicyPage = lazyRoute(account, 'PolicyPage');
const PersonalInfoPage = lazyRoute(account, 'PersonalInfoPage');
const UpdateUserInfoPage = lazyRoute(account, 'UpdateUserInfoPage');
const UpdatePasswordPage = lazyRoute(account, 'UpdatePasswordPage');
const VisitorState = lazyRoute(account, 'VisitorState');

// The member pages pick their page from the path inside their chunk (the entry holds four routes).
const MemberPages = lazyRoute(() => import('./routes/MemberRoutes'), 'MemberPages');

// Coupons (issue 24): a chunk of their own; the route does not exist in the meal-voucher channel.
const CouponListRoute = lazyRoute(() => import('./routes/CouponRoutes'), 'CouponListRoute');

const checkout = () => import('./routes/CheckoutRoute');
const CheckoutRoute = lazyRoute(checkout, 'CheckoutRoute');

const orders = () => import('./routes/OrderRoutes');
const OrderStatusRoute = lazyRoute(orders, 'OrderStatusRoute');
const OrderListRoute = lazyRoute(orders, 'OrderListRoute');
const OrderInfoRoute = lazyRoute(orders, 'OrderInfoRoute');
const ReorderRoute = lazyRoute(orders, 'ReorderRoute');
const OrderCommentRoute = lazyRoute(orders, 'OrderCommentRoute');

const guarded = (el: ReactNode) => <RequireLogin>{el}</RequireLogin>;
/**
 * A page with its own visitor state (spec ordering §6: only /order/submit requires login): a
 * visitor reads what logging in gives there, with a button to log in that comes back. A page
 * whose user logs out meanwhile shows nothing: whoever logged out navigates on.
 */
function VisitorGate({ kind, children }: { kind: VisitorKind; children: ReactNode }) {
  const token = useAccount((s) => s.token);
  const [hadToken] = useState(token !== null);
  if (!token && hadToken) return null;
  return token ? children : <VisitorState kind={kind} />;
}
const visitor = (kind: VisitorKind, el: ReactNode) => <VisitorGate kind={kind}>{el}</VisitorGate>;

/**
 * /order/status: the order's owner, or anyone holding its view token (the server checks either);
 * a visitor without one reads the visitor state like the other order pages, never /login.
 */
function OrderStatusGate() {
  const [params] = useSearchParams();
  return params.get('viewToken') ? <OrderStatusRoute /> : visitor('orderStatus', <OrderStatusRoute />);
}

/**
 * The route table (spec ordering §2, account §2). Only order submit needs login
 * (RequireLogin: visitors go to /login and come back); /my, the address book and the order
 * pages show their visitor state (VisitorGate; /order/status not with the order's view token). Screens not built yet, unknown paths and
 * the coupons in the meal-voucher channel go home. The store tablet (/tablet) is a separate app in its own
 * layout, with its own staff session.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const customer = pathname !== '/tablet' && !pathname.startsWith('/tablet/');
  useEffect(() => {
    if (customer) return prefetchWhenIdle(ORDERING_PATH);
  }, [customer]);
  return (
    <Routes>
      <Route path="tablet" element={<TabletLayout />}>
        <Route index element={<TabletBoardRoute />} />
        <Route path="login" element={<TabletLoginRoute />} />
        <Route path="*" element={<Navigate to="/tablet" replace />} />
      </Route>
      <Route element={<AppLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="index" element={<Navigate to="/" replace />} />
        <Route path="menu" element={<MenuRoute />} />
        <Route path="product/search" element={<SearchRoute />} />
        <Route path="product/:productCode" element={<ProductRoute />} />
        <Route path="findStore" element={<FindStoreRoute />} />

        <Route path="login" element={<GuestOnly><LoginPage /></GuestOnly>} />
        <Route path="register" element={<GuestOnly><RegisterPage /></GuestOnly>} />
        <Route path="resetPassword" element={<ResetPasswordPage />} />
        <Route path="system/privacyProtocol" element={<PolicyPage kind="privacy" />} />
        <Route path="system/userProtocol" element={<PolicyPage kind="user" />} />

        <Route path="my" element={visitor('my', <MyRoute />)} />
        <Route path="my/personalInfo" element={visitor('my', <PersonalInfoPage />)} />
        <Route path="my/personalInfo/updateUserInfo" element={visitor('my', <UpdateUserInfoPage />)} />
        <Route path="my/personalInfo/updatePassword" element={visitor('my', <UpdatePasswordPage />)} />
        <Route path="my/personalInfo/cancellation" element={visitor('my', <CancellationRoute />)} />

        <Route path="addMember" element={visitor('member', <MemberPages />)} />
        <Route path="my/member/*" element={visitor('member', <MemberPages />)} />
        <Route path="my/integral/list" element={visitor('member', <MemberPages />)} />
        <Route path="memberPointdeduction" element={<MemberPages />} />

        <Route path="my/coupon/list" element={showsCoupons() ? visitor('coupons', <CouponListRoute />) : <Navigate to="/" replace />} />

        <Route path="address" element={visitor('addresses', <AddressListRoute mode="manage" />)} />
        <Route path="address/select" element={visitor('selectAddress', <AddressListRoute mode="select" />)} />
        <Route path="selectAddress" element={visitor('selectAddress', <AddressListRoute mode="select" />)} />
        <Route path="address/add" element={visitor('addresses', <AddressFormRoute />)} />
        <Route path="address/update" element={visitor('addresses', <AddressFormRoute />)} />

        <Route path="order/submit" element={guarded(<CheckoutRoute />)} />
        <Route path="order/status" element={<OrderStatusGate />} />
        <Route path="order" element={visitor('orders', <OrderListRoute />)} />
        <Route path="order/info" element={visitor('order', <OrderInfoRoute />)} />
        <Route path="order/oneMoreOrder" element={visitor('order', <ReorderRoute />)} />
        <Route path="order/comment" element={visitor('order', <OrderCommentRoute />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
