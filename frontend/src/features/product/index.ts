/** The product feature: product details and the builder, with its pricing rules. */
export { ProductBuilder, type ProductBuilderProps, type AddedItem } from './components/ProductBuilder';
export { getProduct, productImages } from './api/product';
export * from './pricing';
