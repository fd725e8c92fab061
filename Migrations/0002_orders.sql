-- Orders: what checkout turns a cart into. Order lines copy SKU, name and price as they were
-- at checkout, so later catalog changes never alter an order. Orders are never pruned, so
-- they do not reference carts.

CREATE TABLE orders (
    number INTEGER PRIMARY KEY CHECK (number >= 1),
    cart_id TEXT NOT NULL CHECK (length(cart_id) BETWEEN 1 AND 128),
    placed_at INTEGER NOT NULL,
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    total_items INTEGER NOT NULL CHECK (total_items > 0),
    total INTEGER NOT NULL CHECK (total >= 0),
    idempotency_key TEXT UNIQUE CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128)
) STRICT;

-- Keyset pages: newest (or oldest) orders of one cart, and of a time range.
CREATE INDEX orders_by_cart ON orders (cart_id, number);
CREATE INDEX orders_by_placed_at ON orders (placed_at, number);

CREATE TABLE order_lines (
    order_number INTEGER NOT NULL REFERENCES orders (number),
    position INTEGER NOT NULL CHECK (position >= 1),
    sku TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 64),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    unit_price INTEGER NOT NULL CHECK (unit_price >= 0),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    line_total INTEGER NOT NULL CHECK (line_total = unit_price * quantity),
    PRIMARY KEY (order_number, position)
) STRICT, WITHOUT ROWID;

-- Orders containing a SKU, newest first.
CREATE INDEX order_lines_by_sku ON order_lines (sku, order_number);
