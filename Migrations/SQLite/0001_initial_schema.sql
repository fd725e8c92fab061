-- The foundation: store settings, the catalog, and carts with their lines.
-- Every rule the service enforces that can be stated per row is repeated here as a CHECK, so
-- another client (the sqlite3 shell, a script) cannot store what the service would refuse.
-- Timestamps are whole milliseconds since 1970-01-01T00:00:00Z (UTC).

CREATE TABLE settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    currency TEXT NOT NULL CHECK (length(currency) = 3 AND currency = upper(currency)),
    currency_exponent INTEGER NOT NULL CHECK (currency_exponent BETWEEN 0 AND 4),
    currency_symbol TEXT,
    max_line_quantity INTEGER NOT NULL CHECK (max_line_quantity BETWEEN 1 AND 1000000),
    max_lines_per_cart INTEGER NOT NULL CHECK (max_lines_per_cart BETWEEN 1 AND 10000)
) STRICT;

CREATE TABLE products (
    sku TEXT PRIMARY KEY NOT NULL CHECK (length(sku) BETWEEN 1 AND 64 AND sku = trim(sku) AND sku NOT GLOB '*[^ -~]*'),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200 AND name = trim(name)),
    price INTEGER NOT NULL CHECK (price BETWEEN 0 AND 100000000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock INTEGER CHECK (stock IS NULL OR stock >= 0)
) STRICT, WITHOUT ROWID;

-- line_count and next_position summarize the cart's lines (how many; the position the next new
-- line takes), so that adding a line needs no scan of the others. The SQLite storage keeps them
-- in step with cart_lines in the same transaction as every change to the lines.
CREATE TABLE carts (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128 AND id NOT GLOB '*[^ -~]*'),
    version INTEGER NOT NULL CHECK (version >= 1),
    updated_at INTEGER NOT NULL,
    line_count INTEGER NOT NULL DEFAULT 0 CHECK (line_count >= 0),
    next_position INTEGER NOT NULL DEFAULT 1 CHECK (next_position >= 1)
) STRICT, WITHOUT ROWID;

-- No index on updated_at: it cost every cart change a second B-tree update and a second page
-- per commit (add-to-cart 70.6k -> 60.2k instructions without it, issue 6), while only prune
-- filters on it, and a scan of a million carts takes about 50 ms.

-- position orders a cart's lines as they were first added; it never changes afterwards.
CREATE TABLE cart_lines (
    cart_id TEXT NOT NULL REFERENCES carts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    sku TEXT NOT NULL REFERENCES products (sku),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    position INTEGER NOT NULL,
    PRIMARY KEY (cart_id, sku)
) STRICT, WITHOUT ROWID;
