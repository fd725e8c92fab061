#!/usr/bin/env bash
# Issue 6, workload 6: `cart show` and `cart orders --limit 20` as whole processes on the
# 1M-order database, against the sqlite3 shell running the equivalent SELECT on the same file.
# Target: cart / sqlite3 ≤ 1.5 (median wall time, hyperfine, same run).
#
# Usage: scripts/bench-cli-startup.sh [DATABASE]
#   DATABASE defaults to the 1M-order dataset cart-bench caches under .build/bench-cache
#   (run `swift run -c release cart-bench` once to build it).
# Needs hyperfine (Debian: apt-get install -y hyperfine) and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."

db="${1:-$(ls -t .build/bench-cache/project-*-1000000.sqlite3 2>/dev/null | head -1 || true)}"
if [ -z "$db" ] || [ ! -f "$db" ]; then
    echo "Error: no 1M-order database; run 'swift run -c release cart-bench' first or pass one." >&2
    exit 1
fi
for tool in hyperfine sqlite3 python3; do
    command -v "$tool" >/dev/null || { echo "Error: $tool is not installed." >&2; exit 1; }
done
swift build -c release --product cart >/dev/null
cart="$(swift build -c release --show-bin-path)/cart"
cart_id="cart-00042"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

show_sql="SELECT l.quantity, p.sku, p.name, p.price FROM cart_lines AS l JOIN products AS p ON p.sku = l.sku
  WHERE l.cart_id = '$cart_id' ORDER BY l.position;"
orders_sql="SELECT o.number, o.placed_at, o.cart_id, o.total, l.sku, l.name, l.quantity, l.unit_price
  FROM (SELECT * FROM orders ORDER BY placed_at DESC, number DESC LIMIT 20) AS o
  JOIN order_lines AS l ON l.order_number = o.number ORDER BY o.placed_at DESC, o.number DESC, l.position;"

run() {  # name, cart command, sqlite3 SQL
    hyperfine --shell=none --warmup 5 --runs "${RUNS:-40}" --style basic --export-json "$out/$1.json" \
        -n "cart $1" "$2" -n "sqlite3 $1" "sqlite3 -readonly $db \"$3\"" >&2
}
run show "$cart --db $db --cart $cart_id show" "$show_sql"
run orders "$cart --db $db orders --limit 20" "$orders_sql"

python3 - "$out" <<'PY'
import json, sys
print(f"{'command':<28}{'cart ms':>10}{'sqlite3 ms':>12}{'ratio':>8}  target   met")
for name in ("show", "orders --limit 20"):
    key = name.split()[0]
    results = json.load(open(f"{sys.argv[1]}/{key}.json"))["results"]
    cart, shell = (r["median"] * 1000 for r in results)
    ratio = cart / shell
    print(f"{'cart ' + name:<28}{cart:>10.2f}{shell:>12.2f}{ratio:>8.2f}  ≤ 1.5    {'yes' if ratio <= 1.5 else 'NO'}")
PY
