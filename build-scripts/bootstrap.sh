#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks for building and testing.
# Idempotent: installs only missing packages, reinstalls node_modules only when
# package-lock.json changed.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

APT_PACKAGES=(
  cmake make g++ pkg-config       # native build
  clang-format                    # lint.sh: the C++ layout
  libxml2-dev zlib1g-dev          # native libxml2 and zlib
  catch2 nlohmann-json3-dev       # tests, small JSON
  emscripten binaryen             # wasm build (Emscripten 3.1.6)
  llvm-19-dev                     # LLVM 19's Itanium demangler (a header); its llvm-cxxfilt for tests
  dpkg-dev                        # dpkg-source, to unpack Debian source packages
  libxml2-utils time              # bench/: xmllint, the streaming-parse floor; GNU time
  clang libclang-rt-14-dev        # fuzz/: libFuzzer and the sanitizers' runtimes
  lld-14 llvm-14                  # Mach-O and dSYM fixtures: ld64.lld, dsymutil, llvm-symbolizer, llvm-nm
  chromium firefox-esr webkit2gtk-driver  # the page's end-to-end tests (tests/e2e), in three engines
  xvfb                            # a display for Firefox's WebGL and WebKit's MiniBrowser
  fonts-dejavu-core fonts-noto-color-emoji  # their screenshots: text, and speedscope's icons
)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  log "Installing Debian packages: ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cd "$ROOT_DIR"
stamp="node_modules/.package-lock.json"
if [[ ! -f "$stamp" || package-lock.json -nt "$stamp" ]]; then
  log "Installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
