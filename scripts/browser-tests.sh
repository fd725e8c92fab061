#!/usr/bin/env bash
# The browser tests: the shop in headless Debian Chromium (Selenium, chromedriver) against
# `cart serve` and the `cart` CLI on one SQLite store.
#
#   scripts/browser-tests.sh [pytest arguments...]     (e.g. -k restart)
#
# Builds `cart`, then runs Tests/Browser with pytest from the venv that scripts/test.sh makes
# (.build/venv; made here too when missing). The tests start `cart serve --listen 127.0.0.1:0`
# themselves, read its "Listening on" line, stop it with SIGTERM (and start it again on the
# same port and store for the restart case). Screenshots land in .build/screenshots.
# Without Chromium the tests are skipped, except under CI=true, where that fails.
#
# SHOP_JITTER_MS=N holds every answer to the page's requests back a random 0 to N ms, so that
# the cart's events often arrive before the answers they follow: a run with it (250 finds
# what one without it misses) shows where the shop, or a test, depends on that order.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    if [ ! -x "$tool" ]; then
        if [ "${CI:-}" = true ]; then
            echo "browser tests: $tool is missing (apt-get install chromium chromium-driver)" >&2
            exit 1
        fi
        echo "browser tests skipped: $tool is missing (apt-get install chromium chromium-driver)" >&2
        exit 0
    fi
done

venv=.build/venv
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt

swift build --product cart
bin=$(swift build --show-bin-path)
export CART_BIN="$bin/cart"
export PYTHONDONTWRITEBYTECODE=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1

exec "$venv/bin/python" -m pytest Tests/Browser -p no:cacheprovider -ra --durations=0 "$@"
