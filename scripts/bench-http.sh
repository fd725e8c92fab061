#!/usr/bin/env bash
# Benchmarks the release `cart serve` with wrk over loopback, on a SQLite store of 64 minted
# carts (of 3 lines each unless --lines says otherwise).
#
# Usage: scripts/bench-http.sh [--pool] [--lines N] [SECONDS [CONNECTIONS [THREADS [ROUNDS]]]]
#        (defaults 10, 64, 4, 3; carts of 3 lines)
#
# Without --pool: `cart serve` against raw-cart-http-baseline, a raw C server on
# libmicrohttpd doing the same work on the same store, for GET a cart and POST an item. The
# raw server runs three times: bare (no ID signature, no access line), with one connection
# shared behind a mutex; bare, with a connection per thread (what `cart serve`'s reader pool
# gives); and with a connection per thread doing the same work, which adds checking the cart
# ID's signature and writing the access line.
# With --pool: GET a cart from `cart serve` with its reader pool (the default, a connection a
# thread) against `cart serve --connections 1` (every request through one connection).
# --lines N gives each cart N lines (N products), so that reading a cart is a larger share of
# a GET.
#
# Every server runs THREADS threads; wrk runs 2 threads and CONNECTIONS connections. Servers
# alternate within each round, so a change in the machine's load hits all of them; the
# figures are each server's median over the rounds, with the load average before and after
# printed, since the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=raw
lines=3
while [[ ${1:-} == --* ]]; do
    case $1 in
        --pool) mode=pool; shift ;;
        --lines) lines=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done
seconds=${1:-10}
connections=${2:-64}
threads=${3:-4}
rounds=${4:-3}

work=$(mktemp -d)
servers=()
source scripts/lib/servers.sh
trap 'stop_servers; rm -rf "$work"' EXIT
build_release

db=$work/shop.sqlite3
seed_store "$bin/cart" "$db" 64 "$work/ids" "$lines"

# Runs wrk with method $1 against $url; prints "REQUESTS_PER_SECOND P99_MS".
measure() {
    local output
    output=$(CART_IDS=$work/ids WRK_METHOD=$1 wrk -t2 -c"$connections" -d"${seconds}s" --latency \
        -s scripts/wrk/carts.lua "$url")
    if grep -q 'Non-2xx\|Socket errors' <<<"$output"; then
        echo "wrk saw errors, so the run's figures would count them:" >&2
        echo "$output" >&2
        return 1
    fi
    local rps p99
    rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
    p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } print v }' <<<"$output")
    echo "$rps $p99"
}

# Starts server $1 (a name below), measures method $2 and appends "RPS P99" to $work/$1-$2.
run() {
    local server=$1 method=$2
    case $server in
        cart) start_server "$server" "$bin/cart" --db "$db" serve --listen 127.0.0.1:0 --threads "$threads" ;;
        cart-one) start_server "$server" "$bin/cart" --db "$db" serve --listen 127.0.0.1:0 --threads "$threads" --connections 1 ;;
        raw) start_server "$server" "$bin/raw-cart-http-baseline" "$db" 0 "$threads" shared ;;
        raw-per-thread) start_server "$server" "$bin/raw-cart-http-baseline" "$db" 0 "$threads" per-thread ;;
        raw-same-work) start_server "$server" "$bin/raw-cart-http-baseline" "$db" 0 "$threads" per-thread same-work ;;
    esac
    local figures
    figures=$(measure "$method")
    stop_server "$pid"
    echo "round $round $method $server: $figures" >&2
    echo "$figures" >>"$work/$server-$method"
}

# Prints the median of column $2 of file $1.
median() {
    awk -v column="$2" '{ print $column }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

label() {
    case $1 in
        cart) echo "cart serve" ;;
        cart-one) echo "cart serve --connections 1" ;;
        raw) echo "raw C bare, one shared connection" ;;
        raw-per-thread) echo "raw C bare, a connection per thread" ;;
        raw-same-work) echo "raw C same work, per thread" ;;
    esac
}

if [[ $mode == raw ]]; then
    methods=(GET POST)
    contenders=(cart raw raw-per-thread raw-same-work)
else
    methods=(GET)
    contenders=(cart cart-one)
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(describe_machine); carts of $lines lines; wrk -t2 -c$connections -d${seconds}s; $threads server threads; $rounds rounds" >&2
for round in $(seq "$rounds"); do
    for method in "${methods[@]}"; do
        for server in "${contenders[@]}"; do run "$server" "$method"; done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf '%-6s %-36s %14s %12s\n' route server "median req/s" "median p99 ms"
for method in "${methods[@]}"; do
    for server in "${contenders[@]}"; do
        printf '%-6s %-36s %14s %12s\n' "$method" "$(label "$server")" \
            "$(median "$work/$server-$method" 1)" "$(median "$work/$server-$method" 2)"
    done
done
for method in "${methods[@]}"; do
    cart=$(median "$work/cart-$method" 1)
    for server in "${contenders[@]:1}"; do
        awk -v m="$method" -v a="$cart" -v b="$(median "$work/$server-$method" 1)" -v l="$(label "$server")" \
            'BEGIN { printf "%s: cart serve / %s = %.2fx\n", m, l, a / b }'
    done
done
