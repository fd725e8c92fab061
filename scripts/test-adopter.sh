#!/usr/bin/env bash
# Builds and tests Tests/AdopterPackage, a package that depends on this one by path as an
# adopter's app would: it encodes a Cart, runs a CartService over CartInMemory, and runs
# CartContract against a backend of its own. CI runs it after the main tests.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Tests/AdopterPackage --build-tests
swift test --package-path Tests/AdopterPackage --skip-build
