#!/usr/bin/env bash
# Builds the libFuzzer targets (the checked build: clang, AddressSanitizer +
# UndefinedBehaviorSanitizer) and runs each for SECONDS, seeded from the
# Instruments corpus and tests/malformed.
#   build-scripts/fuzz.sh [SECONDS] [TARGET...]     (default: 60 seconds, every target)
# What a run learns stays in build/fuzz/corpus/<target> for the next run. A crash,
# hang or memory blow-up is kept in build/fuzz/findings/<target>/ and fails the
# run; once fixed, copy the input into tests/fuzz/<target>/: libFuzzer runs every
# input of its corpus folders first, so each fuzzing pass, npm test's too, replays it.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

seconds="${1:-60}"
shift || true
all_targets=(zip inflate gzip bplist keyed_archive form_template typedstream allocation_events
  bulkstore uniquer symbol_archive xml deep_copy demangle macho symbolication import)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
FUZZ_DIR="$BUILD_DIR/fuzz"

log "Building the fuzz targets (the checked build; npm test has built them already)"
"$ROOT_DIR/build-scripts/checked-build.sh" "${targets[@]/#/fuzz_}"

log "Collecting seeds"
rm -rf "$FUZZ_DIR/seeds"
node "$ROOT_DIR/fuzz/seeds.js" "$FUZZ_DIR/seeds"

# One target: its log in build/fuzz/<target>.log; fails on a finding.
fuzz_target() {
  local target="$1"
  mkdir -p "$FUZZ_DIR/corpus/$target" "$FUZZ_DIR/findings/$target" "$FUZZ_DIR/seeds/$target"
  # Inputs kept from earlier findings are seeds too.
  local regressions=()
  [[ -d "$ROOT_DIR/tests/fuzz/$target" ]] && regressions=("$ROOT_DIR/tests/fuzz/$target")
  "$CHECKED_BUILD_DIR/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=1048576 -print_final_stats=1 \
    -artifact_prefix="$FUZZ_DIR/findings/$target/" \
    "$FUZZ_DIR/corpus/$target" "$FUZZ_DIR/seeds/$target" "${regressions[@]}" \
    >"$FUZZ_DIR/$target.log" 2>&1
}

# Each fuzzer is one process on one core: as many run at once as there are cores.
log "Fuzzing ${#targets[@]} targets for ${seconds}s each, $JOBS at a time"
declare -A running=()  # pid → target
failed=()
report() {
  local target="$1" status="$2"
  if ((status != 0)); then
    failed+=("$target")
    tail -n 30 "$FUZZ_DIR/$target.log" >&2
  fi
  printf '%s: %s\n' "$target" \
    "$(grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$FUZZ_DIR/$target.log" | tr '\n' ' ')" >&2
}
wait_for_one() {
  local pid status=0
  wait -n -p pid "${!running[@]}" || status=$?
  report "${running[$pid]}" "$status"
  unset "running[$pid]"
}
for target in "${targets[@]}"; do
  while ((${#running[@]} >= JOBS)); do wait_for_one; done
  fuzz_target "$target" &
  running[$!]="$target"
done
while ((${#running[@]})); do wait_for_one; done

if ((${#failed[@]})); then
  log "Findings in: ${failed[*]} (inputs in $FUZZ_DIR/findings/, logs in $FUZZ_DIR/*.log)"
  exit 1
fi
log "No findings"
