#!/usr/bin/env bash
# Benchmarks the cart API against a raw C server on libmicrohttpd doing the same work on the
# same SQLite store (raw-cart-http-baseline): GET a cart, POST an item, with wrk over loopback,
# release builds, in one run. Prints requests/s and p99 latency for each, and the ratios.
#
# Usage: scripts/bench-http.sh [SECONDS [CONNECTIONS [THREADS]]]   (defaults 10, 64, 4)
#
# Both servers run THREADS libmicrohttpd threads; wrk runs 2 threads and CONNECTIONS
# connections, spread over 64 minted carts of 3 lines each. The raw server runs twice: with
# one shared connection behind a mutex (what SQLiteCartRepository has today) and with a
# connection per thread (what a reader pool gives). Rounds alternate project, raw, raw per
# thread, so a change in the machine's load hits all of them. The load average is printed
# before and after: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
connections=${2:-64}
threads=${3:-4}
swift build -c release --product http-bench-server >/dev/null
swift build -c release --product raw-cart-http-baseline >/dev/null
bin=$(swift build -c release --show-bin-path)

work=$(mktemp -d)
servers=()
source scripts/lib/servers.sh
trap 'stop_servers; rm -rf "$work"' EXIT

# Creates the store, mints the carts and fills each with three lines through the API.
db=$work/shop.sqlite3
start_server setup "$bin/http-bench-server" --cart "$db" --port 0 --seed --mint 64 "$work/ids"
while read -r id; do
    for sku in apple banana cherry; do
        curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"sku\":\"$sku\"}" "$url/v1/carts/$id/items"
    done
done <"$work/ids"
stop_server "$pid"

# Runs wrk with method $1 against $url; prints "REQUESTS_PER_SECOND P99_MS".
measure() {
    local output
    output=$(CART_IDS=$work/ids WRK_METHOD=$1 wrk -t2 -c"$connections" -d"${seconds}s" --latency \
        -s scripts/wrk/carts.lua "$url")
    if grep -q 'Non-2xx\|Socket errors' <<<"$output"; then
        echo "wrk saw errors:" >&2
        echo "$output" >&2
    fi
    local rps p99
    rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
    p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } print v }' <<<"$output")
    echo "$rps $p99"
}

declare -A result
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; wrk -t2 -c$connections -d${seconds}s; $threads server threads" >&2
for method in GET POST; do
    start_server project "$bin/http-bench-server" --cart "$db" --port 0 --threads "$threads"
    result[project-$method]=$(measure "$method")
    stop_server "$pid"
    start_server raw "$bin/raw-cart-http-baseline" "$db" 0 "$threads" shared
    result[raw-$method]=$(measure "$method")
    stop_server "$pid"
    start_server raw-pool "$bin/raw-cart-http-baseline" "$db" 0 "$threads" per-thread
    result[rawpool-$method]=$(measure "$method")
    stop_server "$pid"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf '%-6s %-38s %12s %10s\n' route server "requests/s" "p99 ms"
for method in GET POST; do
    for server in project raw rawpool; do
        read -r rps p99 <<<"${result[$server-$method]}"
        label=$(case $server in project) echo "CartHTTP (SQLiteCartRepository)";; raw) echo "raw C, one shared connection";; rawpool) echo "raw C, a connection per thread";; esac)
        printf '%-6s %-38s %12s %10s\n' "$method" "$label" "$rps" "$p99"
    done
done
for method in GET POST; do
    read -r project _ <<<"${result[project-$method]}"
    read -r raw _ <<<"${result[raw-$method]}"
    read -r pool _ <<<"${result[rawpool-$method]}"
    awk -v m="$method" -v a="$project" -v b="$raw" -v c="$pool" \
        'BEGIN { printf "%s: CartHTTP / raw shared = %.2fx, CartHTTP / raw per thread = %.2fx\n", m, a / b, a / c }'
done
