-- Cheaper CHECKs on products (issue 6, product import). Per row of a 100k-row insert in the
-- sqlite3 shell (callgrind), the 0001 CHECKs cost 7.7k instructions: sku NOT GLOB '*[^ -~]*'
-- 3.4k, sku = trim(sku) 1.1k, name = trim(name) 1.1k, the two length() ranges 1.9k, price,
-- active and stock 0.3k. These cost 1.9k there; the first-character guards added to them
-- cost 0.46k more per row of CartService.importProducts (cart-bench, callgrind: sku 0.31k,
-- name 0.15k). They guarantee, for any client:
--   sku: 1 to 64 bytes, as many characters as bytes, and a first byte from '!' to '~'. That
--        refuses every non-ASCII character written as UTF-8 (it makes fewer characters than
--        bytes), a NUL anywhere (length() stops counting at it), and a leading space,
--        control character or high byte. It cannot see byte sequences that are not UTF-8
--        after the first byte (CAST(x'636166E9' AS TEXT) passes: length() counts the lone
--        0xE9 as a character); SQLite says such text gives undefined results. Swift reads
--        them back with U+FFFD, so the key no longer finds the row: every write by key of a
--        row a unit has read must change exactly one row, or the unit fails
--        (Database.requireOneRowChanged), so nothing is skipped silently.
--   name: 1 to 200 bytes, or else 1 to 200 characters (the byte count decides the common
--        short name without counting characters), and no leading NUL (4 bytes but length()
--        0: order_lines' length(name) >= 1 would refuse it at every checkout). A leading
--        control character stays the service's to refuse, as under 0001, whose trim()
--        refused only spaces, so a file another client wrote still migrates; all but a SKU
--        with a NUL after its first character, which 0001's length() and GLOB stopped at:
--        such a file is refused in one line and left byte for byte (SQLiteCartRepository
--        migrates a file before switching it to WAL);
--   price 0 to 100000000, active 0 or 1, stock NULL or >= 0, STRICT types, as before.
-- Each CHECK stays on one line: SQLite quotes it in its error message. The guards are plain
-- comparisons; CAST(x'7F' AS TEXT) measured 23 instructions a row cheaper than char(127).
-- CartService alone now enforces: SKUs and names without surrounding white space, without
-- control characters (0x01-0x1F, 0x7F, U+2028/2029) and without bidirectional controls.
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
        CHECK (length(CAST(sku AS BLOB)) BETWEEN 1 AND 64 AND length(sku) = length(CAST(sku AS BLOB)) AND sku >= '!' AND sku < CAST(x'7F' AS TEXT)),
    name TEXT NOT NULL
        CHECK ((length(CAST(name AS BLOB)) BETWEEN 1 AND 200 OR length(name) BETWEEN 1 AND 200) AND name >= CAST(x'01' AS TEXT)),
    price INTEGER NOT NULL CHECK (price BETWEEN 0 AND 100000000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock INTEGER CHECK (stock IS NULL OR stock >= 0)
) STRICT, WITHOUT ROWID;

INSERT INTO products (sku, name, price, active, stock)
SELECT sku, name, price, active, stock FROM products_before_0003 ORDER BY sku;

DROP TABLE products_before_0003;
