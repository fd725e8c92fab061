PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO products VALUES('apple','Apple',129,1,NULL);
INSERT INTO products VALUES('fig','Fig',350,0,3);
INSERT INTO products VALUES('pear','Pear',99,1,12);
CREATE TABLE carts (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 128 AND id NOT GLOB '*[^ -~]*'),
    version INTEGER NOT NULL CHECK (version >= 1),
    updated_at INTEGER NOT NULL,
    line_count INTEGER NOT NULL DEFAULT 0 CHECK (line_count >= 0),
    next_position INTEGER NOT NULL DEFAULT 1 CHECK (next_position >= 1)
) STRICT, WITHOUT ROWID;
INSERT INTO carts VALUES('alice',3,1798000100000,2,3);
INSERT INTO carts VALUES('bob',1,1798000200000,1,2);
INSERT INTO carts VALUES('carol',2,1798000300000,0,1);
CREATE TABLE cart_lines (
    cart_id TEXT NOT NULL REFERENCES carts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    sku TEXT NOT NULL REFERENCES products (sku),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    position INTEGER NOT NULL,
    PRIMARY KEY (cart_id, sku)
) STRICT, WITHOUT ROWID;
INSERT INTO cart_lines VALUES('alice','apple',5,2);
INSERT INTO cart_lines VALUES('alice','pear',2,1);
INSERT INTO cart_lines VALUES('bob','fig',1,1);
CREATE TABLE schema_migrations (
                    number INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT;
INSERT INTO schema_migrations VALUES(1,'0001_initial_schema','0b27ba1b27da2fd0ee18e039d8ea36625098c84ad862e567fe9a3b335692f014',1798000000000);
COMMIT;
