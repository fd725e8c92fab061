#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with the toolchain's `swiftc -sanitize=fuzzer,address`
# and runs each for a given time. Any crash, trap or sanitizer report fails the run and leaves
# the crashing input in the corpus directory.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
out=.build/fuzz
mkdir -p "$out"

# Each target: a name, the module its sources form, and the source files (its entry point last).
build_target() {
    local name=$1
    case "$name" in
    money)
        swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name cart -module-name CartCore \
            Sources/CartCore/*.swift Fuzz/FuzzMoneyParsing.swift -o "$out/fuzz-$name" 2>&1 |
            grep -v "Cannot export local symbol" || true
        ;;
    *)
        echo "unknown fuzz target '$name'" >&2
        return 64
        ;;
    esac
    [ -x "$out/fuzz-$name" ]
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(money)
for target in "${targets[@]}"; do
    echo "== fuzz $target for ${seconds}s"
    build_target "$target"
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    seeds="Fuzz/seeds/$target"
    [ -d "$seeds" ] || seeds=""
    (cd "$out" && ./"fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="crash-$target-" "corpus-$target" ${seeds:+"../../$seeds"}) 2>&1 |
        grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR)|SUMMARY|crash-" || true
    if ls "$out"/crash-"$target"-* >/dev/null 2>&1; then
        echo "fuzz $target: CRASH, inputs in $out/crash-$target-*" >&2
        exit 1
    fi
done
