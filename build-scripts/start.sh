#!/usr/bin/env bash
# npm start [INPUT]: builds what is missing, then converts INPUT (an xctrace
# export) to build/<name>.speedscope.json; without INPUT, converts the corpus'
# sample export. Open the result at https://www.speedscope.app or in any
# speedscope viewer.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ ! -f "$ROOT_DIR/web/dist/instrumentscope-core.wasm" ]]; then
  "$ROOT_DIR/build-scripts/build.sh" wasm
fi
input="${1:-$ROOT_DIR/../shared/corpus/shadi-gamal__uniprof/tests/fixtures/test-simple-export.xml.gz}"
if [[ ! -e "$input" ]]; then
  echo "usage: npm start -- EXPORT.xml   (an \`xctrace export\` of a Time Profiler table)" >&2
  exit 2
fi
output="$BUILD_DIR/$(basename "$input" | sed 's/\.gz$//; s/\.xml$//').speedscope.json"
mkdir -p "$BUILD_DIR"
node "$ROOT_DIR/web/src/cli.js" "$input" --list
node "$ROOT_DIR/web/src/cli.js" "$input" -o "$output"
echo "Wrote $output: open it at https://www.speedscope.app or in a local speedscope."
