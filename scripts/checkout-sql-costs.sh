#!/usr/bin/env bash
# Issue 6, workload 4: instructions per checkout of each SQL statement on the project's schema,
# and on variants of it, with callgrind (scripts/checkout-sql-costs.c; no Swift involved).
# Prints one line per run: the schema, the statement forms, and each part's cost per checkout.
#
# Usage: scripts/checkout-sql-costs.sh
# Needs cc, libsqlite3-dev, valgrind and perl.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cc -O2 -o "$out/costs" scripts/checkout-sql-costs.c -lsqlite3

one=Migrations/0001_initial_schema.sql
two=Migrations/0002_orders.sql
variant() { # name, perl edit of 0001, perl edit of 0002
    perl -0pe "$2" "$one" >"$out/$1.0001.sql"
    perl -0pe "$3" "$two" >"$out/$1.0002.sql"
}
variant schema '' ''
variant no-order-line-fk '' 's/ REFERENCES orders \(number\)//'
variant no-order-line-checks '' 's/(CREATE TABLE order_lines.*)/$1 =~ s{ CHECK (\((?:[^()]++|(?1))*\))}{}gr/se'
variant no-order-checks '' 's/(CREATE TABLE orders .*?\) STRICT;)/$1 =~ s{ CHECK (\((?:[^()]++|(?1))*\))}{}gr/se'
variant no-order-lines-by-sku '' 's/CREATE INDEX order_lines_by_sku[^;]*;//'
variant no-cart-line-fks 's/ REFERENCES carts \(id\) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED//; s/ REFERENCES products \(sku\)//' ''

measure() { # schema variant, then the four forms
    local name="$1"
    shift
    (cd "$out" && valgrind --tool=callgrind --callgrind-out-file="$out/cg" ./costs "$name.0001.sql" "$name.0002.sql" "$@" 2>/dev/null)
    printf '%-22s %-6s %-6s %-4s %-9s' "$name" "$@"
    callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" 2>/dev/null |
        awk '/\?\?\?:(part_[a-z_]+|checkout) \[/ {
            n = $1; gsub(",", "", n); f = $0; sub(/.*\?\?\?:/, "", f); sub(/ .*/, "", f); sub(/^part_/, "", f)
            printf "  %s %.1fk", f, n / 500 / 1000 }'
    echo
}

echo "instructions per checkout of 5 lines, inclusive (500 checkouts)"
measure schema single each cart ordered
measure schema multi each cart ordered
measure schema multi each keys ordered
measure schema multi each keys unordered
measure schema multi values keys unordered
measure schema multi case keys unordered
for name in no-order-line-fk no-order-line-checks no-order-checks no-order-lines-by-sku; do
    measure "$name" multi each keys unordered
done
measure no-cart-line-fks multi each cart unordered
measure no-cart-line-fks multi each keys unordered
