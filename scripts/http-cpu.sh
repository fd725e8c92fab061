#!/usr/bin/env bash
# Measures the CPU time one cart request costs under load, and where it goes, in the release
# `cart serve` and in the raw C server doing the same work: what `scripts/bench-http.sh`'s
# throughput ratio comes from, in microseconds rather than instructions.
#
# Usage: scripts/http-cpu.sh [GET|POST] [SECONDS [THREADS]]   (defaults GET, 8, 4)
#
# Each server runs THREADS threads on a SQLite store of 64 minted carts of 3 lines, under
# `wrk -t2 -c64` for SECONDS. Over the middle of the run `perf stat` counts the server's CPU
# time (task-clock) and context switches, and `perf record` samples where that time goes. The
# samples are sorted into parts (the kernel, SQLite, libmicrohttpd, malloc and free, the rest
# of glibc, the Swift runtime, the Swift standard library, the project's own code, the raw
# server's own code), each given in CPU microseconds per request. wrk's own CPU is what the
# two cores have left; the note at the end says how the three figures make the throughput.
#
# Needs perf (Debian's linux-perf) with software events allowed (perf_event_paranoid <= 2).
set -euo pipefail
cd "$(dirname "$0")/.."

method=${1:-GET}
seconds=${2:-8}
threads=${3:-4}
# perf watches the middle of the run: from its second second to one before the end.
window=$((seconds - 2))
if [[ $method != GET && $method != POST ]] || (( seconds < 4 )); then
    echo "usage: scripts/http-cpu.sh [GET|POST] [SECONDS (4 or more) [THREADS]]" >&2
    exit 64
fi
command -v perf >/dev/null || { echo "perf is not installed (apt-get install linux-perf)" >&2; exit 69; }

work=$(mktemp -d)
servers=()
source scripts/lib/servers.sh
trap 'stop_servers; rm -rf "$work"' EXIT
build_release
seed_store "$bin/cart" "$work/shop.sqlite3" 64 "$work/ids"

# Measures server $1 (cart or raw); prints its figures and keeps the samples in $work/$1.data.
measure() {
    local name=$1
    case $name in
        cart) start_server "$name" "$bin/cart" --db "$work/shop.sqlite3" serve --listen 127.0.0.1:0 --threads "$threads" ;;
        raw) start_server "$name" "$bin/raw-cart-http-baseline" "$work/shop.sqlite3" 0 "$threads" per-thread same-work ;;
    esac
    CART_IDS=$work/ids WRK_METHOD=$method wrk -t2 -c64 -d"${seconds}s" -s scripts/wrk/carts.lua "$url" >"$work/$name.wrk" &
    local load=$!
    sleep 1
    perf stat -x, -e task-clock,context-switches -p "$pid" -o "$work/$name.stat" -- sleep "$window" &
    local stat=$!
    perf record -q -F 4999 -p "$pid" -o "$work/$name.data" -- sleep "$window" >/dev/null 2>&1
    wait "$stat" "$load"
    stop_server "$pid"
    if grep -q 'Non-2xx\|Socket errors' "$work/$name.wrk"; then
        echo "wrk saw errors from $name, so its figures would count them:" >&2
        cat "$work/$name.wrk" >&2
        exit 1
    fi
    perf report -i "$work/$name.data" --no-children -g none -n --sort dso,sym --stdio 2>/dev/null >"$work/$name.samples"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(describe_machine); $method; wrk -t2 -c64 -d${seconds}s; $threads server threads" >&2
measure cart
measure raw
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$work" "$window" <<'PYTHON'
import re, sys
work, elapsed = sys.argv[1], float(sys.argv[2])

def part(dso, symbol):
    if dso.startswith("[kernel"): return "kernel"
    if "microhttpd" in dso: return "libmicrohttpd"
    if "sqlite" in dso: return "SQLite"
    if dso.startswith("libc"):
        return "malloc and free" if re.search(r"malloc|free|_int_|calloc|realloc|usable", symbol) else "glibc, the rest"
    if dso in ("raw-cart-http-baseline",): return "raw server's code"
    if symbol.startswith(("swift_", "swift::", "_swift_", "__swift_")) or "swift::" in symbol: return "Swift runtime"
    if symbol.startswith(("$ss", "$sS")): return "Swift standard library"
    if symbol.startswith("$s"): return "project's Swift code"
    # The release `cart` links SQLite in; its functions are C names.
    return "SQLite" if dso == "cart" else "other"

for name, label in (("cart", "cart serve"), ("raw", "raw C, same work")):
    requests = float(re.search(r"Requests/sec:\s+([\d.]+)", open(f"{work}/{name}.wrk").read()).group(1))
    stat = {line.split(",")[2]: float(line.split(",")[0]) for line in open(f"{work}/{name}.stat")
            if line.count(",") > 3 and line.split(",")[0].replace(".", "").isdigit()}
    cpu_ms = stat["task-clock"]
    per_request = cpu_ms * 1000 / (requests * elapsed)
    counts = {}
    for line in open(f"{work}/{name}.samples"):
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(.*)$", line)
        if m:
            key = part(m.group(2), m.group(3).strip())
            counts[key] = counts.get(key, 0) + int(m.group(1))
    total = sum(counts.values()) or 1
    print(f"{label}: {requests:,.0f} req/s, {cpu_ms / elapsed / 1000:.2f} CPUs, "
          f"{per_request:.1f} µs of server CPU a request, "
          f"{stat['context-switches'] / (requests * elapsed):.2f} context switches a request")
    for key, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"    {key:<24} {per_request * count / total:6.1f} µs")
print("Throughput on 2 cores shared with wrk is about 2 / (server CPU + wrk CPU) a request while the")
print("server is CPU-bound (GET); a POST waits on the one writer, and its CPU does not fill the cores.")
PYTHON
