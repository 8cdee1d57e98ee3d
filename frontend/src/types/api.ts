/**
 * The server contract (docs: /api-docs, design API.md). Money is yuan as a number; times are epoch ms.
 * Names, addresses and notices arrive in the request language in the unsuffixed fields.
 */

export type OrderType = 0 | 1 | 2;
export const ORDER_TYPES: readonly OrderType[] = [0, 1, 2];

export interface LngLat {
  lng: number;
  lat: number;
}

export interface ServiceNotice {
  content: string;
  /** 1 confirm dialog, 2 toast. */
  popUpModel: number;
  leftBtn: string | null;
  rightBtn: string | null;
}

export interface TimeWindow {
  start: string;
  end: string;
}

export interface ExclusionDay {
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
}

export type StoreStatus = 'open' | 'busy' | 'closed';

export interface Store {
  storeCode: string;
  storeName: string;
  storeNameCN: string;
  storeNameEN: string;
  storeAddress: string;
  storeAddressCN: string;
  storeAddressEN: string;
  lat: number;
  lng: number;
  point: LngLat;
  inRange: boolean | null;
  /** Kilometres, e.g. "1.25". */
  distance: string | null;
  areaPoints: [number, number][];
  status: StoreStatus;
  isOpen: boolean;
  storeTel: string;
  standbyTel: string | null;
  cityCode: string;
  cityName: string;
  districtCode: string;
  districtName: string;
  groupCode: string;
  deliveryTime: number;
  estimateTime: number;
  businessTimeZones: TimeWindow[];
  businessHours: string;
  businessHourListText: string;
  /** Sorted: 0 delivery, 1 pickup, 2 dine-in. */
  serviceMethods: number[];
  serviceNotice: ServiceNotice | null;
  businessNotice: string | null;
  stopStoreNotice: string | null;
  bookEnable: boolean;
  bookDays: number;
  defaultBookTime: string | null;
  exclusionDayList: ExclusionDay[];
  deliveryFee: number;
  freeDeliveryThreshold: number;
  isVirtual: boolean;
}

export interface City {
  cityCode: string;
  cityName: string;
  cityNameCN: string;
  cityNameEN: string;
  cityCharAt0: string;
  lat: number;
  lng: number;
  deliveryDisplay: boolean;
  hot: boolean;
}

export interface District {
  cityCode: string;
  districtCode: string;
  districtName: string;
  districtNameEN: string;
}

export interface Poi {
  id: string;
  name: string;
  address: string;
  point: LngLat;
  cityCode: string;
  city: string;
  district: string;
  kind: string;
  /** Metres from the asked point, when one was asked (the server may leave it out). */
  distanceM?: number | null;
}

export type LocationType = 'gps' | 'ip' | 'defaultStore' | 'address';

export interface LocationInfo {
  point: LngLat;
  name: string;
  city: string;
  cityCode: string;
  district: string;
  districtCode: string;
  province: string;
  street: string;
  streetNumber: string;
  address: string;
  locationType: LocationType;
  showName: string;
  pois: Poi[];
}

export interface PlacePage {
  items: Poi[];
  page: number;
  pageSize: number;
  total: number;
}

/** 0 single, 1 pizza or multi-flavour, 2 combo, 7 juice, 9 two-flavour. */
export type ProductType = 0 | 1 | 2 | 7 | 9;

export interface ProductCard {
  productCode: string;
  categoryCode: string;
  productName: string;
  productNameEN: string;
  description: string;
  descriptionEN: string;
  sellingPrice: number;
  minSale: number;
  imageURL1: string;
  imageURL2: string | null;
  productType: number;
  productSubType: number;
  recommendType: number;
  sort: number;
  soldOut: boolean;
}

export interface MenuCategory {
  categoryCode: string;
  categoryName: string;
  categoryNameEN: string;
  sort: number;
  products: ProductCard[];
}

export interface Menu {
  storeCode: string;
  orderType: number;
  orderTime: number;
  storeStatus: string;
  stopStoreNotice: string | null;
  categories: MenuCategory[];
}

export interface SizeOption {
  sizeCode: string;
  sizeName: string;
  sizeNameEN: string;
  price: number;
  isDefault: boolean;
}

export interface PastryOption {
  pastryCode: string;
  pastryName: string;
  pastryNameEN: string;
  extraPrice: number;
  /** Empty means every size. */
  sizeCodes: string[];
  isDefault: boolean;
}

export interface FlavorOption {
  flavorCode: string;
  flavorName: string;
  flavorNameEN: string;
  imageURL: string;
  prices: { sizeCode: string; price: number }[];
}

export interface Ingredient {
  code: string;
  name: string;
  nameEN: string;
  price: number;
  isDefault: boolean;
  maxQuantity: number;
}

export interface ComboChoice {
  productCode: string;
  productName: string;
  productNameEN: string;
  imageURL1: string;
  addPrice: number;
  isDefault: boolean;
  sizeCode: string | null;
}

export interface ComboRound {
  roundCode: string;
  roundName: string;
  roundNameEN: string;
  chooseNum: number;
  choices: ComboChoice[];
}

export interface StyleGroup {
  title: string;
  titleEn: string;
  showType: number;
  hidden: boolean;
}

export interface StyleOption {
  size: StyleGroup | null;
  pastry: StyleGroup | null;
  sauces: StyleGroup | null;
  spec1: StyleGroup | null;
  spec2: StyleGroup | null;
}

export interface DetailPageShowNum {
  size: number;
  pastry: number;
  sauces: number;
  spec1: number;
  spec2: number;
}

export interface ProductDetail extends ProductCard {
  /** Semicolon separated. */
  detailImageURLs: string;
  sizeList: SizeOption[];
  pastryList: PastryOption[];
  flavorList: FlavorOption[];
  flavorCount: number;
  sauceList: Ingredient[];
  baseIngredientList: Ingredient[];
  additionalIngredientList: Ingredient[];
  comboRounds: ComboRound[];
  styleOption: StyleOption | null;
  detailPageShowNum: DetailPageShowNum | null;
  effectiveRule: unknown;
}

export interface PageSwitch {
  grayPageList: string[];
  use1i8n: boolean;
  productSearch: boolean;
}

/** The member detail (GET /me, and `user` of every login). The phone arrives masked. */
export interface Me {
  id: number;
  userKey: string;
  cellPhone: string | null;
  name: string | null;
  email: string | null;
  /** 0 unknown, 1 male, 2 female. */
  gender: number;
  birthday: string | null;
  /** Where the birthday picker opens: 14 years ago. */
  defaultBirthday: string;
  userKind: 'guest' | 'authorised' | 'member' | string;
  isLoyalty: boolean;
  loyaltyLevel: number | null;
  anonymousFlag: number;
  /** Points; zero for non-members. */
  userfulPoint: number;
  addressId: number | null;
  personalizedShowTag: boolean;
  isPersonalizedAgree: boolean;
  /** "Don't remind me again" ticked on the SMS-notification dialog. */
  isRemindAgain: boolean;
  hasPassword: boolean;
  consentRequired: boolean;
  createdAt: number;
}

export interface LoginReply {
  token: string;
  expiresAt: number;
  newUser: boolean;
  user: Me;
}

export interface SentCode {
  expiresInSeconds: number;
  resendAfterSeconds: number;
}

export type SmsScene = 'register' | 'login' | 'reset';

export interface PrivacyState {
  policyUpdatedAt: number;
  agreedAt: number | null;
  agreedVersion: number | null;
  current: boolean;
  refusedAt: number | null;
}

export interface MarketingSettings {
  isPersonalizedAgree: boolean;
  isRemindAgain: boolean;
}

/** An address of the address book (spec account §3). Coordinates are GCJ-02 text. */
export interface Address {
  id: number;
  name: string;
  phone: string;
  baseAddress: string;
  houseNumber: string;
  lat: string;
  lng: string;
  cityName: string | null;
  provinceName: string | null;
  countyName: string | null;
  isDefault: boolean;
  /** The point must be picked again (latitude missing or too short). */
  illegal: boolean;
  /** Some store delivers there. */
  hasScope: boolean;
  updatedAt: number;
}

export interface AddressInput {
  name: string;
  phone: string;
  baseAddress: string;
  houseNumber: string;
  lat: string;
  lng: string;
  cityName?: string | null;
  provinceName?: string | null;
  countyName?: string | null;
  isDefault?: boolean;
}

/** What smart paste recognised; null where it found nothing. */
export interface SmartRead {
  name: string | null;
  phone: string | null;
  address: string | null;
  houseNumber: string | null;
}

/* ---------------------------------------------------------------------------------------------
 * Cart, order time and checkout (docs cart-and-checkout.md, spec ordering §3).
 * ------------------------------------------------------------------------------------------- */

/** What was chosen in the product builder (features/product pricing.ts `Selection`). */
export interface CartSelection {
  sizeCode: string | null;
  pastryCode: string | null;
  flavorCodes: (string | null)[];
  sauceCode: string | null;
  removedBase: string[];
  extras: Record<string, number>;
  combo: Record<string, string[]>;
  quantity: number;
}

export interface CartPropertyValue {
  id: string;
  name: string;
  price: number;
  /** Base toppings taken off have quantity 0. */
  quantity: number;
  isDefault: boolean;
  sizeCode: string | null;
  priceAmount: number;
}

/** Sauce, Base, Extra, Pizza (flavours), Combo. */
export interface CartPropertyGroup {
  group: string;
  values: CartPropertyValue[];
}

export type DisableReason = 'soldOut' | 'offTime' | 'expired';

export interface CartItem {
  /** The line id (= shoppingCarId). */
  id: string;
  shoppingCarId: string;
  productCode: string;
  prodCode: string;
  categoryCode: string;
  /** In the request language. */
  prodName: string;
  prodNameEn: string;
  imageUrl: string;
  productType: number;
  productSubType: number;
  minSale: number;
  quantity: number;
  sizeCode: string | null;
  pizzaSizeCode: string | null;
  pizzaSizeName: string | null;
  pizzaPastryCode: string | null;
  pizzaPastryName: string | null;
  properties: CartPropertyGroup[];
  originalPrice: number;
  unitPrice: number;
  countPrice: number;
  countPriceAfterPE: number;
  productDisable: boolean;
  disableReason: DisableReason | null;
  disableMsg: string | null;
  ruleIds: string[];
  promotionDesc: string | null;
  inCarTime: number;
  selection: CartSelection | null;
}

export type RuleType = 'percentOff' | 'fixedPrice' | 'secondItem' | 'comboPrice' | 'fullReduction';

export interface AppliedRule {
  ruleId: string;
  ruleName: string;
  ruleType: RuleType | string;
  discountAmount: number;
}

/** Why a promotion gives nothing on this cart (docs/cart-and-checkout.md "How offers are chosen"). */
export type RuleReason = 'notEffective' | 'notHere' | 'noItems' | 'belowThreshold' | 'mutex' | 'itemsTaken' | 'notBetter';

export interface RuleOption {
  ruleId: string;
  ruleName: string;
  ruleType: RuleType | string;
  description: string;
  /** The customer chose it and the choice stands (it saves something). */
  chosen: boolean;
  applied: boolean;
  /** What the rule would save on its own. */
  discountAmount: number;
  /** What it saves in the combination applied (0 when not applied). */
  savedAmount: number;
  /** Null when applied. */
  reason: RuleReason | null;
  /** The reason in the request language (再买¥25.60可享 …). */
  reasonMsg: string | null;
  /** belowThreshold: what is missing, after item discounts. */
  gap: number | null;
  /** mutex, itemsTaken: the rule that has it instead. */
  excludedBy: string | null;
}

/** A charged line at its list price (never a price made by spreading a discount). */
export interface BreakdownLine {
  lineId: string;
  productCode: string;
  nameCn: string;
  nameEn: string;
  /** Size and crust ("14英寸 经典手拍"), empty when none. */
  specCn: string;
  specEn: string;
  unitPrice: number;
  quantity: number;
  /** unitPrice × quantity. */
  amount: number;
}

/** One promotion's discount, as its own entry. */
export interface BreakdownDiscount {
  ruleId: string;
  nameCn: string;
  nameEn: string;
  ruleType: RuleType | string;
  /** line: on the lines listed; order: off the order as a whole. */
  level: 'line' | 'order';
  amount: number;
  lineIds: string[];
}

/**
 * The amounts a person can check: Σ lines − Σ discounts + deliveryFee − deliveryFeeWaived =
 * payable, to the fen. Cart, order detail and tablet answer the same shape (the order keeps its
 * own from submit).
 */
export interface PriceBreakdown {
  lines: BreakdownLine[];
  discounts: BreakdownDiscount[];
  productAmount: number;
  discountAmount: number;
  deliveryFee: number;
  deliveryFeeWaived: number;
  payable: number;
}

export interface RuleMutex {
  mutexDetails: { ruleId: string }[];
}

/** The `data` of every cart call. Money in yuan (≤ 2 decimals), times epoch ms. */
export interface Cart {
  /** Visitors only. */
  cartToken: string | null;
  shoppingCarVersion: number;
  /** Null until the cart has a store. */
  storeCode: string | null;
  /** 0 delivery, 1 pickup, 2 dine-in. */
  orderType: number;
  oldServiceMethod: number | null;
  /** The order's time (see the reservation); null until one is set. */
  orderTime: number | null;
  isBookOrder: boolean;
  /** Scan-to-order, while valid. */
  deskNo: string | null;
  items: CartItem[];
  saleOutItemsFromShoppingCar: CartItem[];
  timeOutItems: CartItem[];
  effectOutItems: CartItem[];
  couponItems: unknown[];
  saleOutCouponItems: unknown[];
  timeOutCouponItems: unknown[];
  effectOutCouponItems: unknown[];
  priceOfProduct: number;
  priceOfProductAfterPE: number;
  discountAmount: number;
  deliveryFee: number;
  deliveryFeeAfterPE: number;
  differenceDeliveryFee: number;
  differenceDeliveryFeeMsg: string | null;
  orderAmount: number;
  totalQuantity: number;
  orderRefRules: AppliedRule[];
  productGroupRefRules: AppliedRule[];
  availableRules: RuleOption[];
  ruleMutexBeans: RuleMutex[];
  breakdown: PriceBreakdown;
}

export interface CartItemInput {
  productCode: string;
  selection: CartSelection;
}

export type CartEditAction = 'increase' | 'decrease' | 'quantity';

export interface CartEdit {
  id: string;
  action: CartEditAction;
  quantity?: number;
}

export type CartPageType = 'menu' | 'search' | 'orderSubmit';

export interface CartVerifyReply {
  skipped: boolean;
  cart: Cart | null;
}

export interface ReservationInput {
  orderType: OrderType;
  serviceMethod?: OrderType;
  orderTime?: number;
  storeCode: string;
  isBookOrder: boolean;
}

export interface ReservationDay {
  /** "2026-11-24" (store time). */
  date: string;
  label: string;
  slots: number[];
}

export interface ReservationSlots {
  asap: number;
  /** Empty when the store takes no bookings. */
  days: ReservationDay[];
}

/** A table QR link (spec ordering §3 scan-order info). */
export interface ScanInput {
  storeName: string;
  storeCode: string;
  deskNo: string;
  sign: string;
}

export interface ScanReply {
  storeCode: string;
  storeName: string;
  deskNo: string;
  expiresAt: number;
  cart: Cart;
}

export type PaymentType = 'online' | 'offline';

export interface OrderSubmit {
  orderType: number;
  isBookOrder: boolean;
  plannedDeliverTime: number | null;
  consignAddressId: number | null;
  receiverName: string | null;
  receiverMobile: string | null;
  deskNo: string | null;
  remark: string;
  contactless: boolean;
  tableware: number;
  isNeedInvoice: boolean;
  paymentType: PaymentType;
  orderProductAmount: number;
  activityAmount: number;
  freightAmount: number;
  orderAmount: number;
  shoppingCarVersion: number;
}

export interface OrderSubmitReply {
  orderNo: string;
  orderId: number | string;
  orderAmount: number;
  payable: number;
  paymentType: PaymentType;
  /** 5 unpaid (online), 7 cash on delivery (offline). */
  state: number;
  orderType: number;
  orderTime: number;
}

/** The delivery address as frozen on an order. */
export interface OrderAddress {
  id: number;
  baseAddress: string;
  houseNumber: string;
  lat?: string;
  lng?: string;
  cityName?: string | null;
}

/** GET /orders/{orderNo}: the owner's order (lines as priced at submit, amounts, state). */
export interface OrderDetail {
  orderNo: string;
  orderId: number;
  state: number;
  /** The server's label of the state, in the request language. */
  stateLabel?: string;
  progress: number;
  orderType: number;
  orderTime: number;
  isBookOrder: boolean;
  storeCode: string;
  storeName: string;
  storeTel?: string;
  paymentType: PaymentType | string;
  orderProductAmount: number;
  activityAmount: number;
  freightAmount: number;
  orderAmount: number;
  paidAmount?: number;
  receiverName?: string;
  /** Masked: 139****5678. */
  receiverMobile?: string;
  /** Delivery only (null otherwise). */
  address: OrderAddress | null;
  deskNo: string | null;
  remark: string;
  tableware?: number;
  isNeedInvoice?: boolean;
  /** Cart items as priced at submit. */
  lines: Partial<CartItem>[];
  createdAt: number;
  /** The current step in the order type's words (server language). */
  progressLabel?: string;
  rules?: AppliedRule[];
  /** The amounts frozen at submit (rebuilt from the lines for orders older than it). */
  breakdown: PriceBreakdown;
  history?: OrderHistoryEntry[];
  /** The last transition's number; `order:progress` events continue at seq + 1. */
  seq?: number;
  /** When it arrives (delivery) or is ready (pickup, dine-in); recomputed at each stage. */
  eta?: number | null;
  /** accept, make, oven, quality check, dispatch/ready, delivered/completed. */
  steps?: OrderStep[];
  /** Before the store accepted. */
  canCancel?: boolean;
  /** Lets someone without the owner's login follow the order (`?viewToken=`, `order:watch`). */
  viewToken?: string;
  /** The attempt that settled the order, else the latest. */
  payment?: OrderPaymentRef | null;
  /** Every attempt, oldest first: a duplicate payment shows refunded with its reason. */
  payments?: OrderPaymentRef[];
  comment?: OrderComment | null;
}

/** One step of the status page's tracker. */
export interface OrderStep {
  progress: number;
  label: string;
  at: number | null;
  done: boolean;
  current: boolean;
}

/** One transition of an order (who moved it, when). */
export interface OrderHistoryEntry {
  seq: number;
  state: number;
  progress: number;
  /** customer, store, system. */
  actor: string;
  note?: string | null;
  at: number;
}

export interface OrderComment {
  rating: number;
  text: string;
  at: number;
}

/** `refunding`: the refund is owed and retried until the provider makes it. */
export type PaymentState = 'created' | 'pending' | 'paid' | 'failed' | 'closed' | 'refunding' | 'refunded';

/** A payment attempt of the order. */
export interface OrderPaymentRef {
  paymentId: string;
  state: PaymentState | string;
  method: string;
  amount?: number;
  /** Why a refunding or refunded attempt gives its money back (duplicate payment, order cancelled …). */
  refundReason?: string | null;
}

/** The order list's filters (GET /orders?state=). */
export type OrderListFilter = 'all' | 'unpaid' | 'active' | 'completed' | 'cancelled';

export interface OrderSummaryItem {
  name: string;
  quantity: number;
  imageUrl: string;
}

export interface OrderSummary {
  orderNo: string;
  state: number;
  stateLabel: string;
  progress: number;
  orderType: number;
  orderTime: number;
  storeCode: string;
  storeName: string;
  orderAmount: number;
  items: OrderSummaryItem[];
  itemCount: number;
  createdAt: number;
}

export interface OrderPage {
  list: OrderSummary[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

/** POST /orders/{orderNo}/reorder: the cart filled again and the products that could not be. */
export interface ReorderReply {
  cart: Cart;
  skipped: string[];
}

export type PayMethod =
  | 'alipay_wap'
  | 'alipay_app'
  | 'wechat_app'
  | 'wechat_h5'
  | 'wechat_jsapi'
  | 'unionpay_app'
  | 'unionpay_web'
  | 'ccb'
  | 'bbc'
  | 'offline';

export interface CreatePaymentInput {
  orderNo: string;
  method: PayMethod;
  /** A path of this site (`/order/status?…`); anything else comes back to the status page. */
  returnUrl?: string;
  openId?: string;
}

/** POST /payments: the pay instructions of the method (spec ordering §7 response fields). */
export interface PaymentCreated {
  paymentId: string | null;
  orderNo: string;
  orderId: number;
  orderType: number;
  method: string;
  payAmount: number;
  orderAmount: number;
  alreadyPayAmount: number;
  /** A form that submits itself (web flows). */
  html: string | null;
  /** Where the browser goes (H5 flows; the sandbox cashier). */
  url: string | null;
  /** App SDK flows. */
  payInfo: string | null;
  signInfo: string | null;
  /** UnionPay's transaction number. */
  tn: string | null;
  unionPayParas: unknown;
  expiresAt: number | null;
}

/** GET /payments/in-progress: the server's pay-in-progress record (spec ordering §3). */
export interface PaymentInProgress {
  money: number;
  orderNo: string;
  orderId: number;
  payInfo: unknown;
  orderType: number;
  orderAmount: number;
  alreadyPayAmount: number;
  paymentId: string;
  method: string;
  expiresAt: number;
}

/** GET /payments/{paymentId}. */
export interface PaymentInfo {
  paymentId: string;
  orderNo: string;
  state: PaymentState | string;
  method: string;
  amount: number;
  failReason: string | null;
  refundReason?: string | null;
  expiresAt?: number;
}
