#!/usr/bin/env bash
# Runs cart-bench's PostgreSQL workloads (P1 to P4: add-to-cart and checkout against raw libpq
# C, 8 clients against pgbench, history pages) on private clusters, first with fsync on, then
# with fsync off, and prints each run's table.
#
#   scripts/bench-postgres.sh [cart-bench options...]     e.g. --quick, --rounds 7
#
# The clusters live in /tmp/cart-bench-pg-on and /tmp/cart-bench-pg-off, which are kept
# between runs (stopped at the end), so the history datasets built in them are reused. Remove
# them with `scripts/postgres-cluster.sh stop DIR --remove`.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product cart-bench >&2
for fsync in on off; do
    dir=/tmp/cart-bench-pg-$fsync
    eval "$(scripts/postgres-cluster.sh start "$dir" --fsync "$fsync")"
    echo "== fsync $fsync ($(cut -d' ' -f1-3 /proc/loadavg) load) ==" >&2
    status=0
    .build/release/cart-bench --postgres "$CART_TEST_POSTGRES_URL" \
        --only pg-add --only pg-checkout --only pg-clients --only pg-history "$@" || status=$?
    scripts/postgres-cluster.sh stop "$dir" >&2
    [ "$status" -eq 0 ] || exit "$status"
done
