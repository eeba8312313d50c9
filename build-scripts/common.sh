# Shared settings for the build scripts; sourced, not run.
# Every toolchain and dependency version comes from Debian bookworm's packages.
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${ROOT_DIR}/build"
CHECKED_BUILD_DIR="${BUILD_DIR}/checked"  # clang, sanitizers and fuzz targets (checked-build.sh)
TSAN_BUILD_DIR="${BUILD_DIR}/tsan"  # clang and ThreadSanitizer (thread-check.sh)
CACHE_DIR="${INSTRUMENTSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/instrumentscope}"
JOBS="$(nproc 2>/dev/null || echo 2)"

# em++ at -O1 and above needs acorn, which Debian ships outside node's default path.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# Each step with the time it starts: a CI log then shows where the time goes.
log() { printf '\033[1m==> %s\033[0m  (%s)\n' "$*" "$(date +%T)" >&2; }
