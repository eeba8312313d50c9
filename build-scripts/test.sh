#!/usr/bin/env bash
# Runs every test: the tree's formatting and lint (lint.sh), native Catch2
# tests through ctest, plain and in the checked build (clang, AddressSanitizer
# + UndefinedBehaviorSanitizer), a short pass of every fuzz target from that
# same build, the imports on several threads under ThreadSanitizer, the JS tests, which drive the very .wasm the package ships, and
# the page's end-to-end tests in Chromium, Firefox ESR and WebKitGTK
# (screenshots in test-artifacts/e2e/ENGINE).
# Installs and builds what is missing first.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/lint.sh"
"$ROOT_DIR/build-scripts/build.sh" native wasm

log "Building the tests and fuzz targets with sanitizers (clang)"
"$ROOT_DIR/build-scripts/checked-build.sh"

log "Native tests"
ctest --test-dir "$BUILD_DIR/native" --output-on-failure -j"$JOBS"

log "Native tests under AddressSanitizer and UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$CHECKED_BUILD_DIR" --output-on-failure -j"$JOBS"

log "A short fuzzing pass (libFuzzer, ${INSTRUMENTSCOPE_FUZZ_SECONDS:-10} s per target)"
"$ROOT_DIR/build-scripts/fuzz.sh" "${INSTRUMENTSCOPE_FUZZ_SECONDS:-10}"

log "Imports on several threads under ThreadSanitizer"
"$ROOT_DIR/build-scripts/thread-check.sh"

cd "$ROOT_DIR"
log "JavaScript tests (WebAssembly cores)"
# Most of them wait on child processes: one file per core, not Node's default of one fewer.
node --test --test-reporter=spec --test-concurrency="$JOBS" tests/js/

log "End-to-end tests of the page (Chromium, Firefox ESR, WebKitGTK) and the package (Chromium)"
# The limit holds for each file as a whole. page.test.js runs its suite in all three engines: on a
# host about 3x slower than usual, Chromium's took 126 s and Firefox's 79 s, and WebKit's was cut
# off at the 300 s the file had before.
node --test --test-reporter=spec --test-concurrency=1 --test-timeout=900000 tests/e2e/
