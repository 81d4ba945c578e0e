#!/usr/bin/env bash
# Fuzz smoke run (CI): every cargo-fuzz target in fuzz/ for a fixed time on its committed
# corpus (fuzz/corpus/TARGET, read only: new inputs go to a scratch directory), failing on
# any finding. Prints the executions per target.
#
#   scripts/fuzz-smoke.sh [SECONDS] [TARGET ...]      # default 20 s, every target
#
# A longer local run of one target, growing its corpus:
#   cargo +nightly fuzz run TARGET -- -max_total_time=3600
# then keep the corpus small (cargo +nightly fuzz cmin TARGET; at most ~30 small files).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
shift || true
toolchain=${FUZZ_TOOLCHAIN:-+nightly}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo "$toolchain" fuzz list)
fi
cargo "$toolchain" fuzz build
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0
summary=()
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "fuzz/corpus/$t"
  log="$scratch/$t.log"
  start=$(date +%s)
  if cargo "$toolchain" fuzz run "$t" "$scratch/$t" "fuzz/corpus/$t" -- \
      -max_total_time="$secs" -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    status=ok
  else
    status=FINDING
    fail=1
    tail -60 "$log"
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o "[0-9]*$" | tail -1 || true)
  summary+=("$t: ${runs:-?} executions in $(($(date +%s) - start)) s, $status")
done
printf '%s\n' "${summary[@]}"
[ "$fail" = 0 ] || { echo "fuzz: findings (inputs in fuzz/artifacts/)"; exit 1; }
