/**
 * Chinese, the default language and the reference set of keys: the words of the first screen
 * (the home page, the layout, errors, loading and failure screens, every page's title). They ship
 * in the entry chunk; the other pages' words are in zhPages.ts, fetched with the first page chunk.
 */
export const zh = {
  'app.name': '比萨快送',
  'app.slogan': '外送30分钟必达，超时送免费比萨券',

  'common.retry': '重新加载',
  'common.confirm': '确定',
  'common.cancel': '取消',
  'common.loading': '加载中...',
  'common.close': '关闭',
  'common.from': '{price}起',
  'chunk.failed': '页面加载失败，请检查网络后重新加载',

  'lang.switchTo': 'English',

  'err.network': '网络异常，请稍后再试！',
  'err.server': '服务器异常，请稍后再试!',
  'err.busy': '服务器正忙，请稍后再试~',
  'err.offline': '网络已断开，请检查网络!',
  'err.illegal': '非法请求',
  'err.sessionExpired': '登录过期!',
  'err.loginRequired': '未登录',

  'conn.reconnecting': '重新连接中…',
  'conn.offline': '网络已断开，请检查网络!',
  'conn.stopped': '实时更新已断开',
  'conn.retry': '重试',

  'home.greeting': '今天想吃点什么？',
  'home.startTitle': '开始点餐',
  'home.delivery': '外送到家',
  'home.deliveryDesc': '30分钟必达',
  'home.pickup': '到店自取',
  'home.pickupDesc': '下单即做，到店即取',
  'home.currentStore': '当前门店',
  'home.noStore': '尚未选择门店',
  'home.chooseStore': '选择门店',
  'home.browseMenu': '浏览菜单',
  'home.openNav': '打开导航',
  'home.banner': '活动 {n}',
  'home.picks': '人气推荐',
  'home.fullMenu': '全部菜单',

  'nav.title': '导航',
  'nav.home': '首页',
  'nav.menu': '菜单',
  'nav.findStore': '门店查询',
  'nav.search': '搜索商品',
  'nav.orders': '我的订单',
  'nav.coupons': '我的优惠券',
  'nav.my': '个人中心',
  'nav.guest': '游客',
  'nav.guestHint': '登录后可查看订单与优惠券',
  'nav.guestHintNoCoupons': '登录后可查看订单',

  'menu.title': '菜单',

  'store.status.open': '营业中',
  'store.status.busy': '繁忙',
  'store.status.closed': '休息中',

  'search.title': '搜索',

  'store.title': '选择门店',

  'nav.hello': '你好，{name}',
  'nav.userHint': '查看个人中心',
  'nav.login': '登录 / 注册',
  'home.login': '登录',
  'home.account': '我的',
  'account.login.title': '登录',
  'account.privacyPolicy': '《个人信息保护政策》',
  'account.register.title': '注册',
  'account.reset.title': '重置密码',
  'my.title': '个人中心',
  'info.title': '个人信息',
  'info.updateTitle': '完善资料',
  'password.title': '修改密码',
  'cancel.title': '注销账号',
  'privacy.title': '个人信息保护政策',
  'agreement.title': '用户协议',
  'address.title': '我的地址',
  'address.selectTitle': '选择收货地址',
  'address.addTitle': '新增地址',
  'address.editTitle': '编辑地址',

  'checkout.title': '确认订单',

  'order.status.title': '订单状态',
  'order.info.title': '订单详情',
  'order.list.title': '我的订单',
  'order.again': '再来一单',
  'order.comment.title': '订单评价',

  'tablet.title': '门店接单',

};

export type FirstScreenKey = keyof typeof zh;
