#!/usr/bin/env bash
# Regenerates the golden outputs in tests/golden from the corpus, with the
# native build. Review the change with `git diff tests/golden` (the
# *.stacks.txt files are the readable part).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/build.sh" native
INSTRUMENTSCOPE_UPDATE_GOLDEN=1 "$BUILD_DIR/native/tests/cpp/instrumentscope_tests" "Golden outputs"
git -C "$ROOT_DIR" status --short tests/golden
