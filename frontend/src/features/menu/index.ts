/** The menu feature: the current store's categories and products, by order type. */
export { MenuPage, quickAddable, type MenuPageProps } from './components/MenuPage';
export { getMenu, visibleCategories } from './api/menu';
export { noticeViewer } from './noticeMark';
