-- Line quantities within the largest per-line cap, and instants within the years 0000 to 9999,
-- the ranges the service writes and reads; docs/SCHEMA.md says why.

ALTER TABLE cart_lines ADD CONSTRAINT cart_lines_quantity_range CHECK (quantity <= 1000000);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_quantity_range CHECK (quantity <= 1000000);
ALTER TABLE carts ADD CONSTRAINT carts_updated_at_range
    CHECK (updated_at BETWEEN -62167219200000 AND 253402300799999);
ALTER TABLE orders ADD CONSTRAINT orders_placed_at_range
    CHECK (placed_at BETWEEN -62167219200000 AND 253402300799999);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_placed_at_range
    CHECK (placed_at BETWEEN -62167219200000 AND 253402300799999);
