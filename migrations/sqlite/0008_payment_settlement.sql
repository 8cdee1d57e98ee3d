-- One settlement per order; same file as PostgreSQL.
-- `orders.paid_by` is the payment that keeps the order's money: it is written only while
-- empty, in the same transaction as the order's payment move, so the first attempt to settle
-- wins and every other paid attempt is refunded. Unique: a payment settles one order at most.
ALTER TABLE orders ADD COLUMN paid_by TEXT;
CREATE UNIQUE INDEX orders_paid_by ON orders (paid_by);

-- Orders paid before this migration: the attempt the old rule counted (the first created).
UPDATE orders SET paid_by = (
    SELECT p.payment_id FROM payments p
    WHERE p.order_no = orders.order_no AND p.state IN ('paid', 'refunded')
    ORDER BY p.created_at, p.payment_id LIMIT 1
) WHERE paid_amount > 0;

-- Why a paid attempt is being (`refunding`: owed, retried by the housekeeping job) or was
-- (`refunded`) given back: duplicate, order_cancelled, order_refused, order_expired,
-- order_closed. `refund_error`: the provider's last answer while the refund is owed.
ALTER TABLE payments ADD COLUMN refund_reason TEXT;
ALTER TABLE payments ADD COLUMN refund_error TEXT;
