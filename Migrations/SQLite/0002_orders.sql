-- Orders: what checkout turns a cart into. Order lines copy SKU, name and price as they were
-- at checkout, so later catalog changes never alter an order. Orders are never pruned, so
-- they do not reference carts.

CREATE TABLE orders (
    number INTEGER PRIMARY KEY CHECK (number >= 1),
    cart_id TEXT NOT NULL CHECK (length(cart_id) BETWEEN 1 AND 128 AND cart_id NOT GLOB '*[^ -~]*'),
    placed_at INTEGER NOT NULL,
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    total_items INTEGER NOT NULL CHECK (total_items > 0),
    total INTEGER NOT NULL CHECK (total >= 0),
    idempotency_key TEXT CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128)
) STRICT;

-- Partial: orders placed without a key (most) add no entry, where a UNIQUE column indexed
-- every NULL too (issue 6: a B-tree insert and a page per checkout).
CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- History lists orders by (placed_at, number), newest or oldest first, one keyset page at a
-- time. Each index ends in the order number (the rowid), so every filtered page is an index
-- range read in order: no scan of other orders, no sort.
CREATE INDEX orders_by_placed_at ON orders (placed_at);
CREATE INDEX orders_by_cart ON orders (cart_id, placed_at);

CREATE TABLE order_lines (
    order_number INTEGER NOT NULL REFERENCES orders (number),
    position INTEGER NOT NULL CHECK (position >= 1),
    sku TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 64),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    unit_price INTEGER NOT NULL CHECK (unit_price >= 0),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    line_total INTEGER NOT NULL CHECK (line_total = unit_price * quantity),
    -- The order's placed_at, repeated so that "orders containing a SKU" pages by index too.
    placed_at INTEGER NOT NULL,
    PRIMARY KEY (order_number, position)
) STRICT, WITHOUT ROWID;

CREATE INDEX order_lines_by_sku ON order_lines (sku, placed_at, order_number);
