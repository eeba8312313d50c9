#!/usr/bin/env bash
# Builds everything: the native core, tests and CLI (build/native) and the
# WebAssembly core the npm package ships (build/wasm, copied to web/dist).
#   build-scripts/build.sh [native|wasm]...   (default: both)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT_DIR/build-scripts/bootstrap.sh"
targets=("$@")
((${#targets[@]})) || targets=(native wasm)

for target in "${targets[@]}"; do
  case "$target" in
    native)
      log "Building the native core and tests"
      cmake -S "$ROOT_DIR" -B "$BUILD_DIR/native" -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build "$BUILD_DIR/native" -j"$JOBS"
      ;;
    wasm)
      prefix="$("$ROOT_DIR/build-scripts/wasm-deps.sh")"
      # CMake caches the libraries it found: new deps need a fresh build tree.
      if [[ "$(cat "$BUILD_DIR/wasm/deps-prefix" 2>/dev/null)" != "$prefix" ]]; then
        rm -rf "$BUILD_DIR/wasm"
      fi
      log "Building the WebAssembly core"
      # emcmake's default emulator passes a flag Node 20 rejects.
      emcmake cmake -S "$ROOT_DIR" -B "$BUILD_DIR/wasm" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_FIND_ROOT_PATH="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
      echo "$prefix" > "$BUILD_DIR/wasm/deps-prefix"
      cmake --build "$BUILD_DIR/wasm" -j"$JOBS"
      mkdir -p "$ROOT_DIR/web/dist"
      cp "$BUILD_DIR/wasm/instrumentscope-core.js" "$BUILD_DIR/wasm/instrumentscope-core.wasm" \
        "$ROOT_DIR/web/dist/"
      ;;
    *)
      echo "unknown build target: $target (native, wasm)" >&2
      exit 2
      ;;
  esac
done
