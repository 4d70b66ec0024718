#!/usr/bin/env bash
# Runs every cargo-fuzz target (or the ones named) for a fixed time each:
#
#   fuzz/run.sh [SECONDS] [TARGET...]        # default 60 seconds per target
#
# Builds with the machine's stable toolchain: RUSTC_BOOTSTRAP=1 lets stable
# rustc accept the nightly-only flags cargo-fuzz passes (-Zsanitizer=address
# and friends). FUZZ_SANITIZER=none builds without AddressSanitizer (2 to 5
# times the executions per second; the engine is safe Rust). Give each
# sanitizer its own CARGO_TARGET_DIR, or every switch rebuilds everything.
#
# The corpus of each target is kept in fuzz/corpus/TARGET/ (not in git) and
# grows from run to run; the inputs in fuzz/regressions/TARGET/ seed it. A
# crash is saved by libFuzzer under fuzz/artifacts/TARGET/; minimise it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz tmin TARGET fuzz/artifacts/TARGET/crash-...
# and check it in under fuzz/regressions/TARGET/, where the normal test suite
# replays it. Each target's output goes to fuzz/logs/TARGET.log.
#
# Prints, per target, the executions and seconds libFuzzer reports
# (-print_final_stats=1); exits 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-60}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "usage: fuzz/run.sh [SECONDS] [TARGET...]" >&2; exit 2; }
shift || true
command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 2; }

export RUSTC_BOOTSTRAP=1
sanitizer=${FUZZ_SANITIZER:-address}
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo fuzz list); fi

echo "building ${targets[*]} (sanitizer: $sanitizer)"
if [ $# -gt 0 ]; then
  for target in "${targets[@]}"; do cargo fuzz build --sanitizer "$sanitizer" "$target"; done
else
  cargo fuzz build --sanitizer "$sanitizer"
fi

mkdir -p logs
summary=()
failed=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "regressions/$target"
  log="logs/$target.log"
  echo "fuzzing $target for ${seconds}s (log: fuzz/$log)"
  # A game needs a few hundred bytes of moves: let engine inputs be long from the start.
  case $target in
    engine*) options=(-max_len=1024 -len_control=0) ;;
    *) options=() ;;
  esac
  started=$(date +%s)
  status=ok
  cargo fuzz run --sanitizer "$sanitizer" "$target" "corpus/$target" "regressions/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 "${options[@]}" >"$log" 2>&1 || status=CRASH
  wall=$(($(date +%s) - started))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  fuzzed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  corpus=$(find "corpus/$target" -type f | wc -l)
  if [ "$status" != ok ]; then
    failed=1
    grep -m1 -E "panicked at|ERROR: (libFuzzer|AddressSanitizer)" "$log" || true
    ls -t "artifacts/$target"/* 2>/dev/null | head -1 || true
  fi
  summary+=("$(printf '%-14s %10s %8s %8s %8s %7s  %s' "$target" "${execs:-?}" "${fuzzed:-?}" "$wall" "${rate:-?}" "$corpus" "$status")")
done

printf '\n%-14s %10s %8s %8s %8s %7s  %s\n' target executions fuzz_s wall_s exec/s corpus result
printf '%s\n' "${summary[@]}"
exit "$failed"
