#!/usr/bin/env bash
# Builds the checked build (build/checked): the core, the Catch2 tests and the
# libFuzzer targets, all with clang, AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's coverage instrumentation, at -O1. One build serves the
# sanitized test pass and the fuzzing pass: the core is compiled once for both.
#   build-scripts/checked-build.sh [CMAKE_TARGET...]   (default: everything)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/bootstrap.sh"
CC=clang CXX=clang++ cmake -S "$ROOT_DIR" -B "$CHECKED_BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
  -DINSTRUMENTSCOPE_SANITIZE=ON -DINSTRUMENTSCOPE_FUZZ=ON >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$CHECKED_BUILD_DIR" -j"$JOBS" "${targets[@]}"
