/** The search feature: product search by keyword with the store's hot words. */
export { SearchPage, type SearchPageProps } from './components/SearchPage';
export { searchProducts, getHotWords } from './api/search';
