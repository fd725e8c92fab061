#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with the toolchain's `swiftc -sanitize=fuzzer,address`
# and runs each for a given time. Any crash, trap or sanitizer report fails the run and leaves
# the crashing input in .build/fuzz/crash-TARGET-TIME-*.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
#
# Targets: money (Money parsing and formatting), csv (the CSV reader and the product-file
# reader, CSV and JSON), argv (the argument parser against the real command tree).
#
# csv and argv test CartCLI's internal types, so CartCore, CartInMemory, Migrations, CartSQLite,
# CartStore and CartCLI are first compiled here as static libraries with the same sanitizers and -enable-testing
# (rebuilt only when a source is newer than the library), and the target does
# `@testable import CartCLI`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
out=.build/fuzz
modules=$out/modules
mkdir -p "$modules"

flags=(-O -sanitize=fuzzer,address -parse-as-library -package-name cart -swift-version 6
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault -I "$modules" -I Sources/CSQLite)

# The linker warns about every Swift symbol it cannot export from a fuzzer binary; noise.
quiet() { grep -v "Cannot export local symbol" || true; }

# library NAME SOURCE... : a static library and its module, unless both are newer than the sources.
library() {
    local name=$1
    shift
    local lib="$modules/lib$name.a"
    if [ -f "$lib" ] && [ -z "$(find "$@" -newer "$lib" 2>/dev/null | head -1)" ]; then return 0; fi
    echo "   compiling $name"
    swiftc "${flags[@]}" -enable-testing -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
        -emit-library -static -o "$lib" "$@" 2>&1 | quiet
    [ -f "$lib" ]
}

cli_libraries() {
    # The Migrations module's Swift is generated from Migrations/*/*.sql by the package's plugin.
    swift build --target Migrations >/dev/null
    local embedded
    embedded=$(find .build/plugins/outputs -path "*Migrations/destination/EmbedMigrations/EmbeddedMigrations.swift" |
        head -1)
    [ -n "$embedded" ] || { echo "the generated EmbeddedMigrations.swift is missing" >&2; return 1; }
    library CartCore Sources/CartCore/*.swift
    library CartInMemory Sources/CartInMemory/*.swift
    library Migrations Migrations/Migrations.swift "$embedded"
    library CartSQLite Sources/CartSQLite/*.swift
    library CartStore Sources/CartStore/*.swift
    library CartCLI $(find Sources/CartCLI -name '*.swift' | sort)
}

build_target() {
    local name=$1
    case "$name" in
    money)
        swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name cart -module-name CartCore \
            Sources/CartCore/*.swift Fuzz/FuzzMoneyParsing.swift -o "$out/fuzz-$name" 2>&1 | quiet
        ;;
    csv | argv)
        cli_libraries
        local source=Fuzz/FuzzCSVReading.swift
        [ "$name" = argv ] && source=Fuzz/FuzzArgumentParsing.swift
        # The linker does not read the autolink entries of objects inside static libraries:
        # extract them (the libraries each module imports) and pass them on.
        local libraries=(-lCartCLI -lCartStore -lCartSQLite -lCartInMemory -lMigrations -lCartCore)
        local imported
        imported=$(swift-autolink-extract "$modules"/lib*.a -o - | sort -u)
        # shellcheck disable=SC2086 # one -l flag per word
        swiftc "${flags[@]}" -module-name "Fuzz$name" "$source" -L "$modules" "${libraries[@]}" $imported \
            -o "$out/fuzz-$name" 2>&1 | quiet
        ;;
    *)
        echo "unknown fuzz target '$name'" >&2
        return 64
        ;;
    esac
    [ -x "$out/fuzz-$name" ]
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(money csv argv)
for target in "${targets[@]}"; do
    echo "== fuzz $target for ${seconds}s"
    build_target "$target"
    corpus="$out/corpus-$target"
    mkdir -p "$corpus"
    seeds="Fuzz/seeds/$target"
    [ -d "$seeds" ] || seeds=""
    dict="Fuzz/$target.dict"
    [ -f "$dict" ] || dict=""
    # This run's crashing inputs get their own prefix, so an old one does not fail a new run.
    prefix="crash-$target-$(date +%Y%m%d-%H%M%S)-"
    # A Swift trap would otherwise start the runtime's backtracer, which can hang under ASan.
    (cd "$out" && SWIFT_BACKTRACE=enable=no ./"fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 \
        -max_len=4096 ${dict:+-dict="../../$dict"} -artifact_prefix="$prefix" "corpus-$target" \
        ${seeds:+"../../$seeds"}) 2>&1 |
        grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR)|SUMMARY|crash-|Fatal error|Assertion" || true
    if ls "$out/$prefix"* >/dev/null 2>&1; then
        echo "fuzz $target: CRASH, inputs in $out/$prefix*" >&2
        exit 1
    fi
done
