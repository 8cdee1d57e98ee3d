-- Reversals (issue 34). An upgrade gift names the order whose completion unlocked it, so the
-- refund of that order takes the gift back (unclaimed: revoked; delivered: its points taken
-- back, its coupon expired if unused, its product removed if not yet ordered).
ALTER TABLE loyalty_gifts ADD COLUMN order_no TEXT;
CREATE INDEX loyalty_gifts_order ON loyalty_gifts (order_no);
