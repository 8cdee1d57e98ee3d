import { Navigate, Route, Routes } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { FindStoreRoute } from './routes/FindStoreRoute';
import { HomeRoute } from './routes/HomeRoute';
import { MenuRoute } from './routes/MenuRoute';
import { ProductRoute } from './routes/ProductRoute';
import { SearchRoute } from './routes/SearchRoute';

/**
 * The route table (spec ordering §2). Screens not built yet (checkout, orders, account…) and
 * unknown paths go home.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="menu" element={<MenuRoute />} />
        <Route path="product/search" element={<SearchRoute />} />
        <Route path="product/:productCode" element={<ProductRoute />} />
        <Route path="findStore" element={<FindStoreRoute />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
