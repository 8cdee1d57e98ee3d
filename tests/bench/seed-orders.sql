-- The inbound benchmark's orders (tests/bench/run.sh, BENCH_MODE=inbound), in the embedded
-- database of a seeded `pizza-order`: BENCH_ORDERS orders BENCH00000000, BENCH00000001, …
-- of one customer at the flagship SH001, paid and in the oven, each with two lines and its
-- history, as checkout and the tablet leave them. The sockets follow them with `order:watch`
-- and their view tokens, which the harness computes from the server's table secret.
-- `:orders` is replaced by the count before this runs.
INSERT OR IGNORE INTO users (phone, user_key, created_at, updated_at)
VALUES ('13900009999', 'bench-inbound-customer', 1764000000000, 1764000000000);

WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < :orders)
INSERT OR IGNORE INTO orders (order_no, user_id, store_code, order_type, state, progress,
  payment_type, is_book, order_time, product_amount, discount_amount, delivery_fee,
  order_amount, paid_amount, doc, seq, version, created_at, updated_at)
SELECT printf('BENCH%08d', i), (SELECT id FROM users WHERE user_key = 'bench-inbound-customer'),
  'SH001', 0, 6, 20, 'online', 0, 1764000000000 + i, 12800, 1000, 600, 12400, 12400,
  json_object('storeName', json_object('cn', '上海旗舰店', 'en', 'Shanghai Flagship'),
    'storeTel', '021-63210000', 'receiverName', '张三', 'receiverMobile', '13900009999',
    'address', json_object('baseAddress', '上海市黄浦区西藏中路236号', 'houseNumber', '5楼501'),
    'remark', '少放辣', 'tableware', 2, 'isNeedInvoice', json('false'), 'rules', json('[]')),
  4, 4, 1764000000000 + i, 1764000000000 + i
FROM k;

INSERT OR IGNORE INTO order_lines (order_no, line_no, product_code, quantity, unit_price,
  count_price, discount, doc)
SELECT order_no, 1, 'PZ001', 1, 9800, 9800, 1000,
  json_object('prodName', '超级至尊比萨', 'prodNameEn', 'Super Supreme', 'quantity', 1)
FROM orders WHERE order_no LIKE 'BENCH%'
UNION ALL
SELECT order_no, 2, 'DR001', 2, 1500, 3000, 0,
  json_object('prodName', '可乐', 'prodNameEn', 'Cola', 'quantity', 2)
FROM orders WHERE order_no LIKE 'BENCH%';

INSERT OR IGNORE INTO order_events (order_no, seq, state, progress, actor, note, at)
SELECT order_no, s.seq, s.state, s.progress, s.actor, NULL, created_at + s.seq * 60000
FROM orders, (SELECT 1 AS seq, 5 AS state, 0 AS progress, 'system' AS actor
  UNION ALL SELECT 2, 6, 0, 'customer' UNION ALL SELECT 3, 6, 10, 'store'
  UNION ALL SELECT 4, 6, 20, 'store') AS s
WHERE order_no LIKE 'BENCH%';
