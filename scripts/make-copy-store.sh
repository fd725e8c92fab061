#!/usr/bin/env bash
# A SQLite store to time `cart db copy` with: PRODUCTS products, CARTS carts of 3 lines and
# ORDERS orders of 2 lines each (every third with an idempotency key), written by sqlite3
# straight into the schema that `cart db migrate` makes. docs/BENCHMARKS.md has the figures.
#
# Usage: scripts/make-copy-store.sh CART PATH ORDERS PRODUCTS CARTS
#   CART   the cart binary (.build/release/cart)
#   PATH   the store to write; an existing file there is replaced
# Needs sqlite3.
set -euo pipefail
[ $# -eq 5 ] || { echo "Usage: $0 CART PATH ORDERS PRODUCTS CARTS" >&2; exit 64; }
cart=$1 path=$2 orders=$3 products=$4 carts=$5
for count in "$orders" "$products" "$carts"; do
    [[ $count =~ ^[0-9]+$ ]] || { echo "Error: '$count' is not a count." >&2; exit 64; }
done
[ "$products" -ge 3 ] || { echo "Error: PRODUCTS must be 3 or more (each cart holds 3 of them)." >&2; exit 64; }
rm -f "$path" "$path-wal" "$path-shm"
"$cart" --db "$path" db migrate >/dev/null
sqlite3 "$path" <<SQL
PRAGMA foreign_keys = ON;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $products > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $products)
INSERT INTO products (sku, name, price, active, stock)
SELECT printf('sku-%05d', i), printf('Product %d', i), 100 + i, 1, NULL FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $carts > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $carts)
INSERT INTO carts (id, version, updated_at, line_count, next_position)
SELECT printf('cart-%05d', i), 3, 1735689600000 + i * 1000, 3, 4 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $carts > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $carts),
    p(k) AS (VALUES (1), (2), (3))
INSERT INTO cart_lines (cart_id, sku, quantity, position)
SELECT printf('cart-%05d', i), printf('sku-%05d', (i * 3 + k) % $products + 1), k, k FROM n, p;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $orders > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $orders)
INSERT INTO orders (number, cart_id, placed_at, currency, total_items, total, idempotency_key)
SELECT i, printf('cart-%05d', i % 1000), 1735689600000 + i * 60000, (SELECT currency FROM settings), 3,
    (100 + i % $products + 1) + 2 * (100 + (i + $products / 2) % $products + 1),
    CASE WHEN i % 3 = 0 THEN printf('key-%d', i) END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $orders > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $orders)
INSERT INTO order_lines (order_number, position, sku, name, unit_price, quantity, line_total, placed_at)
SELECT i, 1, printf('sku-%05d', i % $products + 1), printf('Product %d', i % $products + 1), 100 + i % $products + 1, 1,
    100 + i % $products + 1, 1735689600000 + i * 60000 FROM n
UNION ALL
SELECT i, 2, printf('sku-%05d', (i + $products / 2) % $products + 1), printf('Product %d', (i + $products / 2) % $products + 1),
    100 + (i + $products / 2) % $products + 1, 2, 2 * (100 + (i + $products / 2) % $products + 1), 1735689600000 + i * 60000 FROM n;
COMMIT;
SQL
