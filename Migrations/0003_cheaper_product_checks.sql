-- Cheaper CHECKs on products (issue 6, product import). Per row of a 100k-row insert in the
-- sqlite3 shell (callgrind), the 0001 CHECKs cost 7.7k instructions: sku NOT GLOB '*[^ -~]*'
-- 3.4k, sku = trim(sku) 1.1k, name = trim(name) 1.1k, the two length() ranges 1.9k, price,
-- active and stock 0.3k. These cost 1.9k (sku 1.3k, name 0.3k) and still guarantee, for any
-- client:
--   sku: 1 to 64 bytes, and as many characters as bytes, so ASCII only and no NUL (a
--        multi-byte character, or a NUL, which ends length()'s count, makes fewer characters);
--   name: 1 to 200 bytes, or else 1 to 200 characters (the byte count decides the common
--        short name without counting characters);
--   price 0 to 100000000, active 0 or 1, stock NULL or >= 0, STRICT types, as before.
-- CartService alone now enforces: SKUs and names without surrounding white space, without
-- control characters (0x01-0x1F, 0x7F, U+2028/2029) and without bidirectional controls.
-- A lone UTF-8 continuation byte cast to TEXT counts as one character in length(), so the sku
-- check does not refuse such invalid UTF-8; the service never stores it.
--
-- Changing a CHECK needs a table rebuild (https://www.sqlite.org/lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"): the Migrator turns foreign keys off outside
-- the transaction and runs PRAGMA foreign_key_check before it commits. The rows are copied
-- aside and back rather than into a new table then renamed: ALTER TABLE RENAME also updates
-- sqlite_temp_schema, which opens the temp database on the migrating connection, and from
-- then on every BEGIN IMMEDIATE of that connection began a transaction on temp too (+1.1k
-- instructions per add-to-cart, measured). cart_lines references products by name throughout.

CREATE TABLE products_before_0003 AS SELECT sku, name, price, active, stock FROM products;

DROP TABLE products;

CREATE TABLE products (
    sku TEXT PRIMARY KEY NOT NULL
        CHECK (length(CAST(sku AS BLOB)) BETWEEN 1 AND 64 AND length(sku) = length(CAST(sku AS BLOB))),
    name TEXT NOT NULL CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 200 OR length(name) BETWEEN 1 AND 200),
    price INTEGER NOT NULL CHECK (price BETWEEN 0 AND 100000000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock INTEGER CHECK (stock IS NULL OR stock >= 0)
) STRICT, WITHOUT ROWID;

INSERT INTO products (sku, name, price, active, stock)
SELECT sku, name, price, active, stock FROM products_before_0003 ORDER BY sku;

DROP TABLE products_before_0003;
