#!/usr/bin/env bash
# Counts the instructions one cart request costs, in the project's server and in the raw C
# baseline, with valgrind's callgrind: a figure the shared machine's load does not move.
#
# Usage: scripts/http-instructions.sh [--cache]
#
# With --cache, each run is under cachegrind's cache simulation instead (this machine's L1
# sizes), and the figures per request are instructions, first-level instruction-cache misses
# and first-level data-cache read and write misses: a server that runs a few more
# instructions can still lose much more time when its code spans many more cache lines.
#
# Each server (the release `cart serve`, access log included, and the raw C server, bare and
# doing the same work: ID signature and access line) runs with one thread under callgrind on a
# fresh seeded store with one minted cart of three lines; one keep-alive connection sends N
# requests (GET the cart, or POST one apple to it), then the server is stopped. The cost per
# request is the difference between the runs with 3,000 and 1,000 requests, divided by 2,000,
# so start-up and stop do not count.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=false
if [[ ${1:-} == --cache ]]; then cache=true; shift; fi
work=$(mktemp -d)
servers=()
source scripts/lib/servers.sh
trap 'stop_servers; rm -rf "$work"' EXIT
build_release

# Sends $3 requests of method $2 on one connection to the server at URL $1, cart $4.
drive() {
    python3 - "$@" <<'PYTHON'
import http.client, sys, urllib.parse
url, method, count, cart = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port)
for _ in range(count):
    if method == "POST":
        connection.request("POST", f"/v1/carts/{cart}/items", body=b'{"sku":"apple","quantity":1}',
                           headers={"Content-Type": "application/json"})
    else:
        connection.request("GET", f"/v1/carts/{cart}")
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"{method} answered {response.status}")
PYTHON
}

# Runs server $1 under valgrind's tool $4, callgrind or cachegrind with its cache simulation
# (the command in the rest), for $3 requests of method $2; the tool's figures land in
# $work/$1.out.
under_valgrind() {
    local name=$1 method=$2 requests=$3 tool=$4
    shift 4
    local options=(--tool="$tool" --"$tool"-out-file="$work/$name.out")
    if [[ $tool == cachegrind ]]; then options+=(--cache-sim=yes); fi
    start_server "$name" valgrind "${options[@]}" "$@"
    drive "$url" "$method" "$requests" "$cart"
    stop_server "$pid"
}

# Runs server $1 under callgrind (the command in the rest) for $3 requests of method $2, then
# prints the instructions it ran, and those it ran outside glibc's memset.
#
# libmicrohttpd zeroes a connection's memory pool (32 KiB) after each request with memset,
# whose `rep stosb` callgrind counts once per byte: in both servers, a large share of the
# count that costs the hardware little. The second figure leaves memset out.
count() {
    under_valgrind "$1" "$2" "$3" callgrind "${@:4}"
    callgrind_annotate --inclusive=yes "$work/$1.out" 2>/dev/null | awk '
        /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
        /__memset_avx2_unaligned_erms \[/ && !seen { gsub(",", "", $1); memset = $1; seen = 1 }
        END { print total, total - memset }'
}

# Runs server $1 under cachegrind's cache simulation (the command in the rest) for $3 requests
# of method $2, then prints its totals: instructions, I1 misses, LL instruction misses, data
# reads, D1 read misses, LL read misses, data writes, D1 write misses, LL write misses.
simulate() {
    under_valgrind "$1" "$2" "$3" cachegrind "${@:4}"
    sed -n 's/^summary: //p' "$work/$1.out"
}

# Valgrind 3.19 cannot read the DWARF of the release builds and gives up; copies without
# debugging information keep their symbols, which is what callgrind_annotate names.
objcopy --strip-debug "$bin/cart" "$work/cart"
objcopy --strip-debug "$bin/raw-cart-http-baseline" "$work/raw-cart-http-baseline"

db=$work/shop.sqlite3
seed_store "$bin/cart" "$db" 1 "$work/ids"
cart=$(head -1 "$work/ids")

if $cache; then
    printf '%-6s %-30s %14s %10s %10s %10s\n' route server instructions "I1 misses" "D1 read" "D1 write"
else
    printf '%-6s %-30s %14s %18s\n' route server "instructions" "without memset"
fi
for method in GET POST; do
    for server in project raw raw-same-work; do
        case $server in
            project) command=("$work/cart" --db "$db" serve --listen 127.0.0.1:0 --threads 1) ;;
            raw) command=("$work/raw-cart-http-baseline" "$db" 0 1 shared) ;;
            raw-same-work) command=("$work/raw-cart-http-baseline" "$db" 0 1 shared same-work) ;;
        esac
        if $cache; then
            low=$(simulate "$server-$method-1000" "$method" 1000 "${command[@]}")
            high=$(simulate "$server-$method-3000" "$method" 3000 "${command[@]}")
            # Fields 1, 2, 5 and 8 of the totals: instructions, I1, D1 read and D1 write misses.
            awk -v m="$method" -v s="$server" -v low="$low" -v high="$high" 'BEGIN {
                split(low, a, " "); split(high, b, " ")
                printf "%-6s %-30s %14d %10d %10d %10d\n", m, s, (b[1] - a[1]) / 2000, (b[2] - a[2]) / 2000,
                    (b[5] - a[5]) / 2000, (b[8] - a[8]) / 2000 }'
            continue
        fi
        read -r low low_rest < <(count "$server-$method-1000" "$method" 1000 "${command[@]}")
        read -r high high_rest < <(count "$server-$method-3000" "$method" 3000 "${command[@]}")
        printf '%-6s %-30s %14s %18s\n' "$method" "$server" "$(( (high - low) / 2000 ))" "$(( (high_rest - low_rest) / 2000 ))"
    done
done
