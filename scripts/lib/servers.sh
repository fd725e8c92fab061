# Sourced by the HTTP scripts: building the servers, and starting one that prints "Listening on
# http://HOST:PORT".

# build_release : builds the release `cart` and raw-cart-http-baseline, and sets $bin to the
# directory that holds them.
build_release() {
    swift build -c release --product cart >/dev/null
    swift build -c release --product raw-cart-http-baseline >/dev/null
    bin=$(swift build -c release --show-bin-path)
}

# describe_machine : prints the processor (model name, family and model numbers, L2 and L3
# caches) and its cores on one line. Machines that all call themselves "AMD EPYC" run these
# benchmarks at different speeds and ratios, so every figure names the processor it came from.
describe_machine() {
    local name family model l2 l3
    name=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
    family=$(awk -F': *' '/^cpu family/ { print $2; exit }' /proc/cpuinfo)
    model=$(awk -F': *' '$1 ~ /^model[ \t]*$/ { print $2; exit }' /proc/cpuinfo)
    l2=$(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo "?")
    l3=$(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo "?")
    echo "$name, family $family model $model, L2 $l2 a core, L3 $l3; $(nproc) cores"
}

# start_server NAME COMMAND... : runs COMMAND in the background with its output in
# $work/NAME.stdout and $work/NAME.err, waits up to 30 s for its "Listening on" line, and sets
# $url and $pid (also added to the array $servers, for a trap to stop).
start_server() {
    local name=$1
    shift
    "$@" >"$work/$name.stdout" 2>"$work/$name.err" &
    pid=$!
    servers+=("$pid")
    for _ in $(seq 300); do
        grep -q '^Listening on ' "$work/$name.stdout" 2>/dev/null && break
        sleep 0.1
    done
    url=$(sed -n 's/^Listening on //p' "$work/$name.stdout")
    if [[ -z $url ]]; then
        cat "$work/$name.err" >&2
        return 1
    fi
}

# stop_server PID : stops one server started with start_server and waits for it.
stop_server() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# stop_servers : stops every server started with start_server (for an EXIT trap).
stop_servers() {
    for server in "${servers[@]}"; do stop_server "$server"; done
}

# seed_store CART DB COUNT IDS [LINES] : makes the SQLite store DB with the `cart` binary CART
# (lines of up to 1,000,000 units; apple, banana with ample stock, cherry, and for LINES above 3
# the products item-4 to item-LINES), mints COUNT carts through `cart serve`, puts one of each
# of the first LINES products (default 3) in each, and writes their IDs to the file IDS, one a
# line.
seed_store() {
    local cart=$1 db=$2 count=$3 ids=$4 lines=${5:-3}
    "$cart" --db "$db" db init --max-line-quantity 1000000 --max-lines "$(( lines > 100 ? lines : 100 ))" >/dev/null
    "$cart" --db "$db" products add apple --name Apple --price 0.50 >/dev/null
    "$cart" --db "$db" products add banana --name Banana --price 0.25 --stock 1000000 >/dev/null
    "$cart" --db "$db" products add cherry --name Cherry --price 12.99 >/dev/null
    local skus=(apple banana cherry) i
    if (( lines > 3 )); then
        {
            echo "sku,name,price"
            for i in $(seq 4 "$lines"); do echo "item-$i,Catalog item number $i,$((i % 50)).99"; done
        } | "$cart" --db "$db" products import - >/dev/null
        for i in $(seq 4 "$lines"); do skus+=("item-$i"); done
    fi
    skus=("${skus[@]:0:lines}")
    start_server seed "$cart" --db "$db" serve --listen 127.0.0.1:0
    : >"$ids"
    local id sku
    for _ in $(seq "$count"); do
        id=$(curl -sf --max-time 30 -X POST "$url/v1/carts" | sed -n 's/.*"cart":"\([^"]*\)".*/\1/p')
        for sku in "${skus[@]}"; do
            curl -sf --max-time 30 -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"sku\":\"$sku\"}" "$url/v1/carts/$id/items"
        done
        echo "$id" >>"$ids"
    done
    stop_server "$pid"
}
