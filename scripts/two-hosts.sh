#!/usr/bin/env bash
# Two application hosts, one database server: network namespaces on this machine, joined by
# veth links, with PostgreSQL listening in one and `cart` clients in the two others, over TCP.
#
#   scripts/two-hosts.sh [CLIENTS] [OPERATIONS] [CUTS]     (defaults: 4 25 6)
#
# 1. CLIENTS processes per host, each running OPERATIONS commands one after another: adds of
#    one unit to two carts both hosts share, and now and then a checkout of one of them with
#    a key of its own. Afterwards every unit added is either in an order or still in a cart,
#    the stock fell by what the orders hold, and the order numbers run 1, 2, … without a gap.
# 2. CUTS times, while both hosts check out carts of their own, host A's link goes down for
#    a moment and comes back. Each checkout either happened or did not (its cart is empty with
#    exactly one order under its key, or full with none); every client ended by itself within
#    its timeouts (connect_timeout, TCP keepalives and tcp_user_timeout, lock and statement
#    timeouts), never killed by the script's guard; the retry with the same key gives
#    exactly one order for every cart, and `cart db check` finds nothing wrong.
#
# Needs root, iproute2 and the PostgreSQL server (scripts/postgres-cluster.sh). Where network
# namespaces cannot be made it says so and exits 0, except under CI=true, where that fails.
# CONFIGURATION=release runs the release cart (default: debug).
set -euo pipefail
cd "$(dirname "$0")/.."

clients=${1:-4}
operations=${2:-25}
cuts=${3:-6}
for value in "$clients" "$operations" "$cuts"; do
    [[ "$value" =~ ^[1-9][0-9]{0,3}$ ]] || {
        echo "usage: scripts/two-hosts.sh [CLIENTS] [OPERATIONS] [CUTS] (whole numbers from 1 to 9999)" >&2
        exit 64
    }
done

cannot_run() {
    if [ "${CI:-}" = true ]; then
        echo "two-hosts: cannot run under CI: $*" >&2
        exit 1
    fi
    echo "two-hosts: skipped: $*" >&2
    exit 0
}
[ "$(id -u)" -eq 0 ] || cannot_run "network namespaces need root"
command -v ip >/dev/null || cannot_run "no 'ip' command (Debian: iproute2)"

bindir=$(pg_config --bindir 2>/dev/null) || bindir=/usr/lib/postgresql/15/bin
psql=$bindir/psql
[ -x "$psql" ] || cannot_run "no psql in $bindir (Debian: postgresql)"

configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --product cart >/dev/null
cart_binary="$(swift build -c "$configuration" --show-bin-path)/cart"

# Names of this run's own, so that runs side by side do not meet.
tag=cart2h$$
db=$tag-db
hosts=(a b)
work=$(mktemp -d /tmp/two-hosts.XXXX)
cluster=$(mktemp -d /tmp/two-hosts-pg.XXXX)
cleanup() {
    local status=$?
    scripts/postgres-cluster.sh stop "$cluster" --remove 2>/dev/null || true
    for ns in "$db" "$tag-a" "$tag-b"; do ip netns del "$ns" 2>/dev/null || true; done
    if [ "$status" -ne 0 ] || [ -n "${TWO_HOSTS_KEEP:-}" ]; then echo "two-hosts: logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

ip netns add "$db" 2>/dev/null || cannot_run "'ip netns add' failed (no CAP_SYS_ADMIN, or no network namespaces)"
ip -n "$db" link set lo up
# Host a is 10.213.1.2, reaching the server at 10.213.1.1 over its own link; host b is 10.213.2.2.
net=1
for host in "${hosts[@]}"; do
    ip netns add "$tag-$host"
    ip -n "$tag-$host" link set lo up
    ip -n "$db" link add "to-$host" type veth peer name eth0 netns "$tag-$host"
    ip -n "$db" addr add "10.213.$net.1/24" dev "to-$host"
    ip -n "$tag-$host" addr add "10.213.$net.2/24" dev eth0
    ip -n "$db" link set "to-$host" up
    ip -n "$tag-$host" link set eth0 up
    net=$((net + 1))
done

eval "$(ip netns exec "$db" scripts/postgres-cluster.sh start "$cluster" --port 5432 \
    --listen 10.213.1.1,10.213.2.1 --fsync off 2>/dev/null)"
admin=$CART_TEST_POSTGRES_URL
# The server gives up on a client that went silent in a few seconds too, so that the row
# locks of a session whose host vanished are released before other clients' lock timeouts.
"$psql" -q "${admin/cart_test@/postgres@}" >/dev/null <<'EOF'
ALTER SYSTEM SET tcp_keepalives_idle = 2;
ALTER SYSTEM SET tcp_keepalives_interval = 1;
ALTER SYSTEM SET tcp_keepalives_count = 3;
ALTER SYSTEM SET tcp_user_timeout = 5000;
SELECT pg_reload_conf();
EOF

# Each host's location: the server's address on its link, and timeouts short enough that a
# client whose link is cut gives up in seconds: connecting 3 s, keepalives after 2 s idle,
# unacknowledged data 5 s, a lock wait 5 s (--busy-timeout), a statement 10 s, a session idle
# in a transaction 5 s.
timeouts="connect_timeout=3&keepalives_idle=2&keepalives_interval=1&keepalives_count=3&tcp_user_timeout=5000"
timeouts+="&options=-c%20statement_timeout%3D10s%20-c%20idle_in_transaction_session_timeout%3D5s"
location() { echo "postgresql://cart_test:cart_test@10.213.$1.1:5432/cart_test?$timeouts"; }
# The longest a client may take before the script's guard kills it: connecting, a lock wait,
# and a lost connection noticed, with room for a loaded machine.
guard_seconds=40

# Runs cart on host $1 with the rest as arguments, under the guard; appends
# "host elapsed-ms status arguments" to $work/runs, and prints cart's stdout.
on_host() {
    local host=$1 net started status=0 out
    shift
    [ "$host" = a ] && net=1 || net=2
    out=$(mktemp "$work/out.XXXXXX")
    started=$(date +%s%N)
    timeout -s KILL "$guard_seconds" ip netns exec "$tag-$host" env -i HOME="$work" PATH=/usr/bin:/bin \
        CART_DB="$(location "$net")" "$cart_binary" "$@" >"$out" 2>>"$work/stderr-$host" || status=$?
    echo "$host $((($(date +%s%N) - started) / 1000000)) $status $*" >>"$work/runs"
    cat "$out"
    rm -f "$out"
    return "$status"
}

# Runs one query; the values it names as :'name' come as name=value arguments, bound by psql.
sql() {
    local query=$1 binding variables=()
    shift
    for binding in "$@"; do variables+=(-v "$binding"); done
    "$psql" -Atq "$admin" "${variables[@]}" <<<"$query"
}

fail() {
    echo "two-hosts: FAILED: $*" >&2
    exit 1
}

on_host a db init --max-line-quantity 1000000 >/dev/null
stock=1000000
on_host a products add widget --name Widget --price 1.25 --stock "$stock" >/dev/null

echo "two-hosts: $clients clients on each of 2 hosts, $operations commands each, over TCP ($configuration cart)"
client() {
    local host=$1 index=$2 step cart key
    for ((step = 0; step < operations; step++)); do
        cart=shared-$(((index + step) % 2))
        if ((step % 5 == 4)); then
            key=$host-$index-$step
            # An empty cart (the other host got there first) is refused with status 1.
            on_host "$host" --cart "$cart" checkout --key "$key" >/dev/null || [ $? -eq 1 ] || echo "$host $index $step" >>"$work/failed"
        else
            on_host "$host" --cart "$cart" add widget >/dev/null || echo "$host $index $step" >>"$work/failed"
        fi
    done
}
for host in "${hosts[@]}"; do
    for ((index = 0; index < clients; index++)); do client "$host" "$index" & done
done
wait
[ ! -s "$work/failed" ] || fail "commands failed without a fault: $(wc -l <"$work/failed") (stderr in $work)"
# Lines of $work/runs: host, milliseconds, status, --cart, cart, command, ...
adds=$(awk '$3 == 0 && $6 == "add" { n++ } END { print n + 0 }' "$work/runs")
ordered=$(sql "SELECT coalesce(sum(quantity), 0) FROM order_lines")
in_carts=$(sql "SELECT coalesce(sum(quantity), 0) FROM cart_lines")
[ "$((ordered + in_carts))" -eq "$adds" ] || fail "$adds units added, but $ordered ordered and $in_carts in carts"
[ "$(sql "SELECT stock FROM products WHERE sku = 'widget'")" -eq "$((stock - ordered))" ] || fail "stock is not $stock - $ordered"
[ "$(sql "SELECT count(*) = coalesce(max(number), 0) AND coalesce(min(number), 1) = 1 FROM orders")" = t ] || fail "order numbers have a gap"
orders=$(sql "SELECT count(*) FROM orders")
echo "two-hosts: $adds adds, $orders orders holding $ordered units, $in_carts units left in carts: exact; numbers 1...$orders"

# Phase 2: carts of their own on both hosts, checked out while host a's link goes down.
echo "two-hosts: $cuts cuts of host a's link during checkouts"
: >"$work/runs"
: >"$work/stderr-a"
: >"$work/stderr-b"
per_cut=$((clients * 2))
for ((cut = 0; cut < cuts; cut++)); do
    for host in "${hosts[@]}"; do
        for ((index = 0; index < per_cut; index++)); do
            on_host "$host" --cart "cut-$cut-$host-$index" add widget 3 >/dev/null || fail "filling cut-$cut-$host-$index"
        done
    done
    # Another client holds the order counter for 1 to 2 seconds, as a busy moment would: the
    # checkouts wait inside their transactions, so the cut finds some of them in the middle
    # (before their commit, or with its answer on the way back).
    sql "SELECT last_number FROM order_numbers FOR UPDATE; SELECT pg_sleep(1 + random())" >/dev/null &
    holder=$!
    (
        for host in "${hosts[@]}"; do
            for ((index = 0; index < per_cut; index++)); do
                id=cut-$cut-$host-$index
                (on_host "$host" --cart "$id" checkout --key "$id" >/dev/null || true) &
                sleep 0.0$((RANDOM % 10))
            done
        done
        wait
    ) &
    starters=$!
    # The cut lands somewhere among the checkouts. Taken down on the server's side, host a's
    # end of the link only loses its carrier: packets vanish, as behind a failed switch, and
    # clients wait for their timeouts. Taken down on host a's side, the link loses its route
    # there too: new connections fail at once (network unreachable). A short cut (1 to 3 s)
    # ends before any timeout, and TCP carries on; a long one (7 s) outlasts the 5 s of
    # keepalives and tcp_user_timeout on both sides. Cut 0 is long on the server's side,
    # cut 1 short on host a's, then the other two pairings, and again.
    if ((cut % 2 == 0)); then end=(-n "$db" link set to-a); else end=(-n "$tag-a" link set eth0); fi
    if (((cut + cut / 2) % 2 == 0)); then length=7; else length=$((RANDOM % 3 + 1)); fi
    sleep 0.$((RANDOM % 8 + 1))
    ip "${end[@]}" down
    sleep "$length"
    ip "${end[@]}" up
    wait "$starters" "$holder"
done

# No client was killed by the guard: each ended by itself within its timeouts.
killed=$(awk '$3 == 137' "$work/runs" | wc -l)
slowest=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$work/runs")
failed=$(awk '$3 != 0' "$work/runs" | wc -l)
[ "$killed" -eq 0 ] || fail "$killed clients hung until the guard killed them after ${guard_seconds} s"
# A checkout that failed may still have happened (the commit went through, its answer did
# not come back): its cart is then empty with one order under its key. Otherwise nothing.
ambiguous=0
while read -r _ _ status _ id _; do
    [ "$status" -ne 0 ] || continue
    count=$(sql "SELECT count(*) FROM orders WHERE idempotency_key = :'id'" id="$id")
    lines=$(sql "SELECT count(*) FROM cart_lines WHERE cart_id = :'id'" id="$id")
    case "$count $lines" in
    "1 0") ambiguous=$((ambiguous + 1)) ;;
    "0 1") ;;
    *) fail "$id after a failed checkout: $count orders and $lines lines (half a checkout)" ;;
    esac
done < <(awk '$4 == "--cart" && $6 == "checkout"' "$work/runs")
# Every cart, retried with its key: exactly one order each, whatever happened before.
expected=$((cuts * 2 * per_cut))
for ((cut = 0; cut < cuts; cut++)); do
    for host in "${hosts[@]}"; do
        for ((index = 0; index < per_cut; index++)); do
            id=cut-$cut-$host-$index
            on_host "$host" --cart "$id" checkout --key "$id" --json >/dev/null || fail "the retry of $id failed"
        done
    done
done
[ "$(sql "SELECT count(*) FROM orders WHERE idempotency_key LIKE 'cut-%'")" -eq "$expected" ] || fail "not one order per key"
[ "$(sql "SELECT count(DISTINCT cart_id) FROM orders WHERE idempotency_key LIKE 'cut-%'")" -eq "$expected" ] || fail "a cart ordered twice"
[ "$(sql "SELECT count(*) FROM cart_lines WHERE cart_id LIKE 'cut-%'")" -eq 0 ] || fail "a retried cart still has lines"
ordered=$(sql "SELECT coalesce(sum(quantity), 0) FROM order_lines")
[ "$(sql "SELECT stock FROM products WHERE sku = 'widget'")" -eq "$((stock - ordered))" ] || fail "stock is not $stock - $ordered"
[ "$(sql "SELECT count(*) = max(number) AND min(number) = 1 FROM orders")" = t ] || fail "order numbers have a gap"
[ "$(on_host b db check)" = ok ] || fail "db check"
reasons=$(cat "$work/stderr-a" "$work/stderr-b" | sed -n 's/.*unavailable: \(.*\); try again\./\1/p; s/^Error: \(.*\)/\1/p' |
    sed 's/^Cart .* is empty.*/an empty cart/; s/^The store .* is unavailable: //' | sort | uniq -c | sort -rn | sed 's/^ */    /')
[ -z "$reasons" ] || printf 'two-hosts: why checkouts failed during the cuts:\n%s\n' "$reasons"
echo "two-hosts: $expected checkouts across $cuts cuts: $failed failed while the link was down ($ambiguous of them had" \
    "committed), none hung (slowest client $((slowest / 1000)).$(((slowest % 1000) / 100)) s, guard ${guard_seconds} s);" \
    "one order per key after retries, numbers 1...$(sql "SELECT max(number) FROM orders"), db check ok"
