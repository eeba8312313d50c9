#!/usr/bin/env bash
# The tree's habits, checked: clang-format (the repo's .clang-format) over the
# C++ sources, ESLint (eslint.config.js) over the JavaScript. Fails naming the
# files that differ; `build-scripts/lint.sh --fix` rewrites them instead.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/bootstrap.sh"
cd "$ROOT_DIR"
mapfile -t cpp_files < <(git ls-files --cached --others --exclude-standard -- \
  'cpp/*.cc' 'cpp/*.h' 'tests/cpp/*.cc' 'tests/cpp/*.h' 'fuzz/*.cc' 'fuzz/*.h')
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${cpp_files[@]}"
  npx eslint --fix .
  exit 0
fi

log "clang-format (${#cpp_files[@]} C++ files)"
# One process for every file; its diagnostics start with the file's name.
if ! report=$(clang-format --dry-run --Werror "${cpp_files[@]}" 2>&1); then
  echo "not formatted as .clang-format says (build-scripts/lint.sh --fix):" >&2
  grep -o '^[^:[:space:]]*:[0-9]*:[0-9]*: error' <<<"$report" | cut -d: -f1 | sort -u |
    sed 's/^/  /' >&2
  exit 1
fi

log "ESLint"
npx eslint --max-warnings=0 .
