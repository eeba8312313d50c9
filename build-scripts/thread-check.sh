#!/usr/bin/env bash
# Builds the native tests with ThreadSanitizer (clang, build/tsan) and runs
# those that import on several threads: every golden and malformed input at
# 1, 2 and 4 threads, and the two-thread parse's own cases. A data race fails
# the run.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/bootstrap.sh"
CC=clang CXX=clang++ cmake -S "$ROOT_DIR" -B "$TSAN_BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
  -DINSTRUMENTSCOPE_TSAN=ON >/dev/null
cmake --build "$TSAN_BUILD_DIR" -j"$JOBS" --target instrumentscope_thread_tests
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  "$TSAN_BUILD_DIR/tests/cpp/instrumentscope_thread_tests"
