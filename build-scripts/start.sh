#!/usr/bin/env bash
# npm start: builds what is missing (the WebAssembly core, the npm packages
# that hold speedscope's viewer), then serves the drag-and-drop page on
# http://127.0.0.1:${PORT:-8080}/ (npm start -- --isolated: cross-origin
# isolated, for the threaded core). To convert a recording on the command
# line instead: node web/src/cli.js INPUT -o OUT.speedscope.json
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ ! -f "$ROOT_DIR/web/dist/instrumentscope-core.wasm" ||
      ! -f "$ROOT_DIR/web/dist/threads/instrumentscope-core-mt.wasm" ]]; then
  "$ROOT_DIR/build-scripts/build.sh" wasm
elif [[ ! -f "$ROOT_DIR/node_modules/speedscope/dist/release/index.html" ]]; then
  "$ROOT_DIR/build-scripts/bootstrap.sh"
fi
exec node "$ROOT_DIR/web/serve.js" "$@"
