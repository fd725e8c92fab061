-- The whole schema: settings, the catalog, carts with their lines, orders with their lines,
-- and the counter that numbers orders. docs/SCHEMA.md explains each choice.
-- Each per-row rule of the service is repeated as a CHECK, so another client (psql, a script)
-- cannot store what the service would refuse. Money is bigint minor units; instants are bigint
-- milliseconds since 1970-01-01T00:00:00Z, the values SQLite stores. Identifiers are printable
-- ASCII compared byte for byte (COLLATE "C"), so they sort as on every other backend.

CREATE TABLE settings (
    id integer PRIMARY KEY CHECK (id = 1),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    currency_exponent integer NOT NULL CHECK (currency_exponent BETWEEN 0 AND 4),
    currency_symbol text,
    max_line_quantity bigint NOT NULL CHECK (max_line_quantity BETWEEN 1 AND 1000000),
    max_lines_per_cart bigint NOT NULL CHECK (max_lines_per_cart BETWEEN 1 AND 10000)
);

CREATE TABLE products (
    sku text COLLATE "C" PRIMARY KEY
        CHECK (octet_length(sku) BETWEEN 1 AND 64 AND sku ~ '^[!-~]([ -~]*[!-~])?$'),
    name text NOT NULL
        CHECK (char_length(name) BETWEEN 1 AND 200 AND name = btrim(name)
            AND name !~ '[\u0001-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]'),
    price bigint NOT NULL CHECK (price BETWEEN 0 AND 100000000),
    active boolean NOT NULL DEFAULT true,
    stock bigint CHECK (stock >= 0)
);

-- line_count and next_position summarize the cart's lines, as in SQLite.
CREATE TABLE carts (
    id text COLLATE "C" PRIMARY KEY
        CHECK (octet_length(id) BETWEEN 1 AND 128 AND id ~ '^[!-~]([ -~]*[!-~])?$'),
    version bigint NOT NULL CHECK (version >= 1),
    updated_at bigint NOT NULL,
    line_count bigint NOT NULL CHECK (line_count >= 0),
    next_position bigint NOT NULL CHECK (next_position >= 1)
);

-- Deferred to commit: a unit may add a cart's first line before it saves the cart's row.
CREATE TABLE cart_lines (
    cart_id text COLLATE "C" NOT NULL REFERENCES carts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    sku text COLLATE "C" NOT NULL REFERENCES products (sku),
    quantity bigint NOT NULL CHECK (quantity > 0),
    position bigint NOT NULL CHECK (position >= 1),
    PRIMARY KEY (cart_id, sku)
);

CREATE TABLE orders (
    number bigint PRIMARY KEY CHECK (number >= 1),
    cart_id text COLLATE "C" NOT NULL
        CHECK (octet_length(cart_id) BETWEEN 1 AND 128 AND cart_id ~ '^[!-~]([ -~]*[!-~])?$'),
    placed_at bigint NOT NULL,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    total_items bigint NOT NULL CHECK (total_items > 0),
    total bigint NOT NULL CHECK (total >= 0),
    idempotency_key text COLLATE "C"
        CHECK (octet_length(idempotency_key) BETWEEN 1 AND 128 AND idempotency_key ~ '^[!-~]([ -~]*[!-~])?$')
);

CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_by_placed_at ON orders (placed_at, number);
CREATE INDEX orders_by_cart ON orders (cart_id, placed_at, number);

CREATE TABLE order_lines (
    order_number bigint NOT NULL REFERENCES orders (number),
    position integer NOT NULL CHECK (position >= 1),
    sku text COLLATE "C" NOT NULL CHECK (octet_length(sku) BETWEEN 1 AND 64 AND sku ~ '^[!-~]([ -~]*[!-~])?$'),
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    unit_price bigint NOT NULL CHECK (unit_price >= 0),
    quantity bigint NOT NULL CHECK (quantity > 0),
    line_total bigint NOT NULL CHECK (line_total = unit_price * quantity),
    -- The order's placed_at, repeated so that "orders containing a SKU" pages by index too.
    placed_at bigint NOT NULL,
    PRIMARY KEY (order_number, position)
);

CREATE INDEX order_lines_by_sku ON order_lines (sku, placed_at, order_number);

-- The last order number: a checkout locks this row, so numbers are gapless (a sequence is
-- not: a rolled-back transaction loses the number it drew).
CREATE TABLE order_numbers (
    id integer PRIMARY KEY CHECK (id = 1),
    last_number bigint NOT NULL CHECK (last_number >= 0)
);

INSERT INTO order_numbers (id, last_number) VALUES (1, 0);

-- Every change to the store, by the service or by any other client, notifies the listeners of
-- channel cart_changes, with the schema as the payload (PostgresCartRepository.changeToken
-- counts them). The server sends a transaction's notifications when it commits, merged into
-- one, and none for a transaction rolled back. A notification per committing transaction, not
-- a counter row that every writer would have to update, so writers do not queue for one row.
CREATE FUNCTION cart_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cart_changes', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;

CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings
    FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
CREATE TRIGGER products_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
CREATE TRIGGER carts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON carts
    FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
CREATE TRIGGER cart_lines_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cart_lines
    FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON orders
    FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
