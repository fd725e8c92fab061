#!/usr/bin/env bash
# Longer versions of the multi-process tests (Tests/CartCLITests/MultiProcessTests.swift),
# through the built `cart` binary and the sqlite3 shell:
#   1. PROCESSES processes started together, each running ADDS `cart add widget` on one line:
#      the line ends at exactly PROCESSES × ADDS, no run fails, none reports a lock;
#   2. ROUNDS rounds of 2 processes racing `cart checkout --key K` on one cart: one order each;
#   3. ROUNDS rounds of 2 carts racing to check out the last unit of a product: never oversold;
#   4. the sqlite3 shell holding BEGIN IMMEDIATE for 2 s: `cart add` waits and succeeds; held
#      past --busy-timeout: exit 75, one line, the dump unchanged;
#   5. the file reachable through a second hard link: refused by either name in one line;
#   6. the shell holding the file locked while `cart` opens it: one busy timeout in all;
#   7. as nobody (root only): ROUNDS reads of a file only root may write while root writes it,
#      none refused; a file nobody may write in a directory it may not: reads work; a hot
#      journal a crash left: one line that says so, and reads work once root opened it.
# Rounds run PROCESSES/2 at a time. Prints the figures; exits 1 at the first broken guarantee.
#
#   scripts/reliability.sh [PROCESSES] [ADDS] [ROUNDS]      (defaults: 16 100 300)
#
# CONFIGURATION=release runs the release build users get (Swift runtime and SQLite linked in);
# the default is the debug build the tests spawn.
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${1:-16}
adds=${2:-100}
rounds=${3:-300}
command -v sqlite3 >/dev/null || { echo "reliability.sh needs the sqlite3 shell" >&2; exit 1; }
configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --product cart >/dev/null
cart=$(swift build -c "$configuration" --show-bin-path)/cart
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export CART_DB=$dir/cart.sqlite3 HOME=$dir
unset CART_STORE CART_ID CART_BUSY_TIMEOUT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Runs "$@" for each index from 0 to $1 - 1, $batch at a time, each started with the others
# of its batch: "$@" gets the index as its last argument.
batch=$((procs / 2 > 0 ? procs / 2 : 1))
in_batches() {
    local count=$1
    shift
    local start
    for ((start = 0; start < count; start += batch)); do
        local index
        for ((index = start; index < count && index < start + batch; index++)); do "$@" "$index" & done
        wait
    done
}

echo "== 1. $procs processes × $adds adds on one line"
"$cart" db init --max-line-quantity $((procs * adds + 10)) >/dev/null
"$cart" products add widget --name Widget --price 1.00 >/dev/null
started=$(now)
for ((p = 0; p < procs; p++)); do
    (
        while [ ! -e "$dir/go" ]; do sleep 0.01; done
        for ((i = 0; i < adds; i++)); do
            "$cart" add widget >/dev/null 2>>"$dir/add-err.$p" || echo "exit $?" >>"$dir/add-fail.$p"
        done
    ) &
done
sleep 0.2
touch "$dir/go"
wait
cat "$dir"/add-fail.* 2>/dev/null | head -3 | grep . && fail "some cart add runs failed"
cat "$dir"/add-err.* | grep -i locked && fail "a run reported a lock"
quantity=$("$cart" show --json | grep -o '"quantity":[0-9]*' | cut -d: -f2)
[ "$quantity" = $((procs * adds)) ] || fail "the line holds $quantity units, not $((procs * adds))"
echo "   $((procs * adds)) adds by $procs processes: the line holds $quantity units ($(since "$started") s)"

echo "== 2. $rounds rounds of 2 processes racing checkout --key on one cart"
setup_cart() { "$cart" --cart "race-$1" add widget 2 >/dev/null; }
in_batches "$rounds" setup_cart
race_checkout() {
    "$cart" --cart "race-$1" checkout --key "key-$1" --json >"$dir/co-$1.a" 2>&1 &
    "$cart" --cart "race-$1" checkout --key "key-$1" --json >"$dir/co-$1.b" 2>&1 &
    wait
}
started=$(now)
in_batches "$rounds" race_checkout
for ((r = 0; r < rounds; r++)); do
    a=$(cat "$dir/co-$r.a")
    b=$(cat "$dir/co-$r.b")
    [ "${a%%,*}" = "${b%%,*}" ] || fail "round $r: two different outcomes: $a / $b"
    [ "$(printf '%s\n%s\n' "$a" "$b" | grep -c '"replayed":false')" = 1 ] || fail "round $r: $a / $b"
done
orders=$("$cart" orders --csv | tail -n +2 | cut -d, -f1 | sort -u | wc -l)
[ "$orders" = "$rounds" ] || fail "$orders orders for $rounds rounds"
echo "   $rounds rounds: $orders orders, one per round ($(since "$started") s)"

echo "== 3. $rounds rounds of 2 carts racing for the last unit"
{
    echo "sku,name,price,stock"
    for ((r = 0; r < rounds; r++)); do echo "last-$r,Last $r,3.00,1"; done
} >"$dir/last.csv"
"$cart" products import "$dir/last.csv" >/dev/null
setup_last() {
    "$cart" --cart "a-$1" add "last-$1" >/dev/null
    "$cart" --cart "b-$1" add "last-$1" >/dev/null
}
in_batches "$rounds" setup_last
race_last() {
    "$cart" --cart "a-$1" checkout >/dev/null 2>"$dir/last-$1.a" &
    "$cart" --cart "b-$1" checkout >/dev/null 2>"$dir/last-$1.b" &
    wait
}
started=$(now)
in_batches "$rounds" race_last
refusals=$(cat "$dir"/last-*.a "$dir"/last-*.b | grep -c "cannot be checked out: .* 0 in stock" || true)
[ "$refusals" = "$rounds" ] || fail "$refusals refusals for $rounds rounds"
sold=$("$cart" orders --csv | tail -n +2 | cut -d, -f4 | grep -c '^last-' || true)
[ "$sold" = "$rounds" ] || fail "$sold units of $rounds last units sold"
"$cart" products --json | grep -o '"sku":"last-[0-9]*","name":"[^"]*","price":"[^"]*","active":true,"stock":[0-9]*' |
    grep -v '"stock":0$' | head -3 | grep . && fail "stock left or negative"
echo "   $rounds rounds: $sold orders, $refusals refusals, every last unit sold once ($(since "$started") s)"

echo "== 4. another client holding the write lock"
(
    echo "BEGIN IMMEDIATE;"
    sleep 2
    echo "COMMIT;"
) | sqlite3 "$CART_DB" &
sleep 0.3
started=$(now)
"$cart" add widget >/dev/null || fail "cart add did not wait for a 2 s lock"
waited=$(since "$started")
wait
awk -v w="$waited" 'BEGIN { exit !(w >= 1.5) }' || fail "cart add returned after $waited s, before the lock was released"
before=$(sqlite3 "$CART_DB" .dump | sha256sum)
(
    echo "BEGIN IMMEDIATE;"
    sleep 2
    echo "ROLLBACK;"
) | sqlite3 "$CART_DB" &
sleep 0.3
status=0
message=$("$cart" --busy-timeout 500 add widget 2>&1 >/dev/null) || status=$?
wait
[ "$status" = 75 ] || fail "cart add exited $status, not 75, past the busy timeout"
[ "$(printf '%s\n' "$message" | wc -l)" = 1 ] || fail "more than one line: $message"
[ "$(sqlite3 "$CART_DB" .dump | sha256sum)" = "$before" ] || fail "the busy cart add changed the database"
echo "   held 2 s: cart add waited $waited s and succeeded; held past 500 ms: exit 75, '$message'"

echo "== 5. the database reachable through a second hard link"
ln "$CART_DB" "$dir/second-name.sqlite3"
before=$(sha256sum <"$CART_DB")
for name in "$CART_DB" "$dir/second-name.sqlite3"; do
    status=0
    message=$("$cart" --db "$name" add widget 2>&1 >/dev/null) || status=$?
    [ "$status" = 1 ] || fail "cart add through a file with two names exited $status, not 1"
    [ "$(printf '%s\n' "$message" | wc -l)" = 1 ] && [[ $message == *"hard links"* ]] || fail "not one line naming the links: $message"
done
[ "$(sha256sum <"$CART_DB")" = "$before" ] || fail "a refused file with two names changed"
rm "$dir/second-name.sqlite3"
echo "   refused by either name, one line, the file unchanged: '$message'"

echo "== 6. a lock held while the database is being opened: one busy timeout in all"
for timeout in 200 500 1500; do
    (
        echo "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM carts;"
        sleep $((timeout / 1000 + 2))
        echo "ROLLBACK;"
    ) | sqlite3 "$CART_DB" >/dev/null &
    sleep 0.3
    started=$(now)
    status=0
    "$cart" --busy-timeout "$timeout" add widget >/dev/null 2>&1 || status=$?
    waited=$(since "$started")
    wait
    [ "$status" = 75 ] || fail "cart add exited $status, not 75, with the file locked while opening"
    awk -v w="$waited" -v t="$timeout" 'BEGIN { exit !(w >= t / 1000 * 0.95 && w < t / 1000 + 0.4) }' ||
        fail "--busy-timeout $timeout gave up after $waited s"
    echo "   --busy-timeout $timeout: gave up after $waited s (exit 75)"
done

echo "== 7. a reader that cannot write the file"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
    echo "   skipped: needs root and setpriv to read as nobody"
else
    # A directory nobody may enter but not write, holding a file only root may write.
    shared=$(mktemp -d)
    trap 'rm -rf "$dir" "$shared"' EXIT
    chmod 755 "$shared"
    store=$shared/cart.sqlite3
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$cart" --db "$store" "$@"; }
    "$cart" --db "$store" products add widget --name Widget --price 1.00 >/dev/null
    "$cart" --db "$store" add widget >/dev/null
    (
        while [ ! -e "$shared.stop" ]; do
            "$cart" --db "$store" add widget >/dev/null 2>&1
            "$cart" --db "$store" remove widget >/dev/null 2>&1
        done
    ) &
    owner=$!
    refused=0
    started=$(now)
    for ((i = 0; i < rounds; i++)); do
        as_nobody show >/dev/null 2>"$shared.err" || {
            refused=$((refused + 1))
            head -1 "$shared.err" >&2
        }
    done
    touch "$shared.stop"
    wait "$owner"
    rm -f "$shared.stop" "$shared.err"
    [ "$refused" = 0 ] || fail "$refused of $rounds reads as nobody failed while the owner wrote"
    echo "   $rounds reads as nobody while the owner wrote: none refused ($(since "$started") s)"
    chmod 666 "$store"
    as_nobody show >/dev/null || fail "nobody could not read a file it may write in a directory it may not"
    status=0
    message=$(as_nobody add widget 2>&1 >/dev/null) || status=$?
    # The library gives the directory as the reason (ReadOnlyReaderTests); the CLI may say
    # only that the store is read-only.
    [ "$status" = 1 ] && [ "$(printf '%s\n' "$message" | wc -l)" = 1 ] &&
        [[ $message == *"directory is not writable"* || $message == *"read-only"* ]] ||
        fail "a write in an unwritable directory: $status $message"
    echo "   the file writable, its directory not: reads work; a write exits 1: '$message'"
    chmod 644 "$store"
    {
        echo "sku,name,price"
        for ((i = 0; i < 2000; i++)); do echo "bulk-$i,Bulk product $i with a long name to fill pages $i $i $i,0.01"; done
    } >"$shared.csv"
    "$cart" --db "$store" products import "$shared.csv" >/dev/null
    sqlite3 "$store" "PRAGMA journal_mode = DELETE" >/dev/null
    # The shell changes every name in a transaction whose pages spill into the file, and is
    # killed before it commits: a hot journal stays beside the file.
    mkfifo "$shared.in"
    sqlite3 "$store" <"$shared.in" >"$shared.out" &
    shell=$!
    exec 9>"$shared.in"
    echo "PRAGMA cache_size = 1; BEGIN; UPDATE products SET name = name || ' (never committed)'; SELECT 'held';" >&9
    until grep -q held "$shared.out" 2>/dev/null; do sleep 0.05; done
    kill -9 "$shell"
    wait "$shell" 2>/dev/null || true
    exec 9>&-
    [ -s "$store-journal" ] || fail "no hot journal was left"
    status=0
    message=$(as_nobody products 2>&1 >/dev/null) || status=$?
    [ "$status" = 1 ] && [[ $message == *"hot journal"* ]] && [[ $message != *damaged* ]] || fail "a hot journal: $status $message"
    echo "   a hot journal: exit 1, '$message'"
    "$cart" --db "$store" show >/dev/null || fail "the owner could not recover the hot journal"
    listed=$(as_nobody products --json) || fail "nobody could not read the recovered file"
    [[ $listed != *"never committed"* ]] || fail "an uncommitted name was read"
    echo "   once the owner opened it: reads work, and nothing uncommitted is there"
fi

[ "$(sqlite3 "$CART_DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity check"
echo "reliability: every guarantee held"
