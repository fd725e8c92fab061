PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    checksum TEXT NOT NULL,
    applied_at INTEGER NOT NULL
) STRICT;
INSERT INTO schema_migrations VALUES(1,'0001_initial_schema','0b27ba1b27da2fd0ee18e039d8ea36625098c84ad862e567fe9a3b335692f014',1795954468388);
INSERT INTO schema_migrations VALUES(2,'0002_orders','9ce581769461152655ed065e46eb1b251f1f20c0328c916afe8b2db2dc40987a',1795954468388);
CREATE TABLE settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    currency TEXT NOT NULL CHECK (length(currency) = 3 AND currency = upper(currency)),
    currency_exponent INTEGER NOT NULL CHECK (currency_exponent BETWEEN 0 AND 4),
    currency_symbol TEXT,
    max_line_quantity INTEGER NOT NULL CHECK (max_line_quantity BETWEEN 1 AND 1000000),
    max_lines_per_cart INTEGER NOT NULL CHECK (max_lines_per_cart BETWEEN 1 AND 10000)
) STRICT;
INSERT INTO settings VALUES(1,'EUR',2,'€',50,20);
CREATE TABLE products (
    sku TEXT PRIMARY KEY NOT NULL CHECK (length(sku) BETWEEN 1 AND 64 AND sku = trim(sku) AND sku NOT GLOB '*[^ -~]*'),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200 AND name = trim(name)),
    price INTEGER NOT NULL CHECK (price BETWEEN 0 AND 100000000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock INTEGER CHECK (stock IS NULL OR stock >= 0)
) STRICT, WITHOUT ROWID;
INSERT INTO products VALUES('apple','Apple (new)',149,1,NULL);
INSERT INTO products VALUES('fig','Fig',350,0,1);
INSERT INTO products VALUES('pear','Pear',99,1,10);
CREATE TABLE carts (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128 AND id NOT GLOB '*[^ -~]*'),
    version INTEGER NOT NULL CHECK (version >= 1),
    updated_at INTEGER NOT NULL,
    line_count INTEGER NOT NULL DEFAULT 0 CHECK (line_count >= 0),
    next_position INTEGER NOT NULL DEFAULT 1 CHECK (next_position >= 1)
) STRICT, WITHOUT ROWID;
INSERT INTO carts VALUES('alice',4,1798090010000,1,2);
INSERT INTO carts VALUES('bob',3,1798086420000,0,1);
INSERT INTO carts VALUES('carol',1,1798090000000,1,2);
CREATE TABLE cart_lines (
    cart_id TEXT NOT NULL REFERENCES carts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    sku TEXT NOT NULL REFERENCES products (sku),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    position INTEGER NOT NULL,
    PRIMARY KEY (cart_id, sku)
) STRICT, WITHOUT ROWID;
INSERT INTO cart_lines VALUES('alice','apple',2,1);
INSERT INTO cart_lines VALUES('carol','pear',3,1);
CREATE TABLE orders (
    number INTEGER PRIMARY KEY CHECK (number >= 1),
    cart_id TEXT NOT NULL CHECK (length(cart_id) BETWEEN 1 AND 128 AND cart_id NOT GLOB '*[^ -~]*'),
    placed_at INTEGER NOT NULL,
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    total_items INTEGER NOT NULL CHECK (total_items > 0),
    total INTEGER NOT NULL CHECK (total >= 0),
    idempotency_key TEXT CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128)
) STRICT;
INSERT INTO orders VALUES(1,'alice',1798000120000,'EUR',7,843,'alice-1');
INSERT INTO orders VALUES(2,'bob',1798086420000,'EUR',3,829,NULL);
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
INSERT INTO order_lines VALUES(1,1,'pear','Pear',99,2,198,1798000120000);
INSERT INTO order_lines VALUES(1,2,'apple','Apple',129,5,645,1798000120000);
INSERT INTO order_lines VALUES(2,1,'fig','Fig',350,2,700,1798086420000);
INSERT INTO order_lines VALUES(2,2,'apple','Apple',129,1,129,1798086420000);
CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_by_placed_at ON orders (placed_at);
CREATE INDEX orders_by_cart ON orders (cart_id, placed_at);
CREATE INDEX order_lines_by_sku ON order_lines (sku, placed_at, order_number);
COMMIT;
