import type { ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import {
  GuestOnly,
  LoginPage,
  PersonalInfoPage,
  PolicyPage,
  RegisterPage,
  RequireLogin,
  ResetPasswordPage,
  UpdatePasswordPage,
  UpdateUserInfoPage,
} from '@/features/account';
import { AppLayout } from './layout/AppLayout';
import { TabletLayout } from './layout/TabletLayout';
import { AddressFormRoute, AddressListRoute, CancellationRoute, MyRoute } from './routes/AccountRoutes';
import { CheckoutRoute } from './routes/CheckoutRoute';
import { FindStoreRoute } from './routes/FindStoreRoute';
import { HomeRoute } from './routes/HomeRoute';
import { MenuRoute } from './routes/MenuRoute';
import { OrderCommentRoute, OrderInfoRoute, OrderListRoute, OrderStatusRoute, ReorderRoute } from './routes/OrderRoutes';
import { ProductRoute } from './routes/ProductRoute';
import { SearchRoute } from './routes/SearchRoute';
import { TabletBoardRoute, TabletLoginRoute } from './routes/TabletRoutes';

const guarded = (el: ReactNode) => <RequireLogin>{el}</RequireLogin>;

/**
 * The route table (spec ordering §2, account §2). Pages that need login (order submit, /my and
 * the address book, the order list and its pages) go through RequireLogin. Screens not built yet
 * (coupons…) and unknown paths go home. The store tablet (/tablet) is a separate app in its own
 * layout, with its own staff session.
 */
export function AppRoutes() {
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

        <Route path="my" element={guarded(<MyRoute />)} />
        <Route path="my/personalInfo" element={guarded(<PersonalInfoPage />)} />
        <Route path="my/personalInfo/updateUserInfo" element={guarded(<UpdateUserInfoPage />)} />
        <Route path="my/personalInfo/updatePassword" element={guarded(<UpdatePasswordPage />)} />
        <Route path="my/personalInfo/cancellation" element={guarded(<CancellationRoute />)} />

        <Route path="address" element={guarded(<AddressListRoute mode="manage" />)} />
        <Route path="address/select" element={guarded(<AddressListRoute mode="select" />)} />
        <Route path="selectAddress" element={guarded(<AddressListRoute mode="select" />)} />
        <Route path="address/add" element={guarded(<AddressFormRoute />)} />
        <Route path="address/update" element={guarded(<AddressFormRoute />)} />

        <Route path="order/submit" element={guarded(<CheckoutRoute />)} />
        {/* The order's owner (401 sends a visitor to /login), or anyone with its viewToken. */}
        <Route path="order/status" element={<OrderStatusRoute />} />
        <Route path="order" element={guarded(<OrderListRoute />)} />
        <Route path="order/info" element={guarded(<OrderInfoRoute />)} />
        <Route path="order/oneMoreOrder" element={guarded(<ReorderRoute />)} />
        <Route path="order/comment" element={guarded(<OrderCommentRoute />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
