#!/usr/bin/env bash
# Kills a busy writer with SIGKILL at random moments and checks the database after each kill:
# integrity, complete-or-absent checkouts, gapless order numbers, stock conservation, and
# every acknowledged commit still present.
#
#   scripts/crash-test.sh [KILLS] [SEED]     (defaults: 200 kills, a time-based seed)
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-200}
seed=${2:-$(date +%s)}
swift build -c release --product cart-torture >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "crash test: $kills kills, seed $seed"
.build/release/cart-torture run --db "$dir/torture.sqlite3" --kills "$kills" --seed "$seed"
