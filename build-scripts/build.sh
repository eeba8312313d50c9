#!/usr/bin/env bash
# Builds everything: the native core, tests and CLI (build/native) and the
# WebAssembly cores the npm package ships (build/wasm and, threaded,
# build/wasm-mt; copied to web/dist).
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
      # The single-threaded core (build/wasm) and the threaded one (build/wasm-mt).
      for variant in "" threads; do
        prefix="$("$ROOT_DIR/build-scripts/wasm-deps.sh" $variant)"
        tree="$BUILD_DIR/wasm${variant:+-mt}"
        # CMake caches the libraries it found: new deps need a fresh build tree.
        if [[ "$(cat "$tree/deps-prefix" 2>/dev/null)" != "$prefix" ]]; then
          rm -rf "$tree"
        fi
        log "Building the WebAssembly core${variant:+ (threads)}"
        # emcmake's default emulator passes a flag Node 20 rejects.
        emcmake cmake -S "$ROOT_DIR" -B "$tree" -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_FIND_ROOT_PATH="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
          -DINSTRUMENTSCOPE_THREADS="${variant:+ON}" \
          -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
        echo "$prefix" > "$tree/deps-prefix"
        cmake --build "$tree" -j"$JOBS"
      done
      mkdir -p "$ROOT_DIR/web/dist/threads"
      cp "$BUILD_DIR/wasm/instrumentscope-core.js" "$BUILD_DIR/wasm/instrumentscope-core.wasm" \
        "$ROOT_DIR/web/dist/"
      cp "$BUILD_DIR/wasm-mt/instrumentscope-core-mt.mjs" \
        "$BUILD_DIR/wasm-mt/instrumentscope-core-mt.wasm" \
        "$BUILD_DIR/wasm-mt/instrumentscope-core-mt.worker.js" "$ROOT_DIR/web/dist/threads/"
      # Node loads the pthreads' worker script as CommonJS, which it is.
      echo '{"type": "commonjs"}' > "$ROOT_DIR/web/dist/threads/package.json"
      ;;
    *)
      echo "unknown build target: $target (native, wasm)" >&2
      exit 2
      ;;
  esac
done
