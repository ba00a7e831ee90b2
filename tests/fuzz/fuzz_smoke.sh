#!/bin/sh
# Fuzz smoke for `make test`: builds the libFuzzer targets with clang in FUZZ_BUILD_DIR
# (incrementally; the first build instruments the whole engine), replays the kept crash
# inputs (tests/fuzz/regressions/TARGET) and runs each target SECONDS on a copy of its
# seed corpus. Exit 77 (ctest: skipped) with the reason when clang or libFuzzer is absent
# or when NPU_FUZZ_SMOKE=0. The mutation seed is fixed (NPU_FUZZ_SEED, default 1) so that
# a failure in CI replays the same inputs on a developer's machine instead of being a
# one-off of a random seed; explore with other seeds and longer runs outside `make test`.
# Built at -O1 without debug info: quick to build on CI's 2 cores, and
# ccache hits across clones (with -g the compile folder would be part of the hash). Usage: fuzz_smoke.sh SOURCE_DIR FUZZ_BUILD_DIR [SECONDS]
set -u
src="$1"; build="$2"; seconds="${3:-15}"
targets="fuzz_onnx_import fuzz_project_loader fuzz_npuom_load fuzz_suite_loader fuzz_trace_import fuzz_memory_snapshot fuzz_npudb_open"
# On by default when clang and libFuzzer are present (the "part of make test"):
# NPU_FUZZ_SMOKE=0 switches it off, e.g. for a quick local loop. The instrumented build is
# cached by ccache across clones, so only the first run on a machine pays for it.
if [ "${NPU_FUZZ_SMOKE:-1}" = 0 ]; then echo "SKIP: fuzz smoke switched off (NPU_FUZZ_SMOKE=0)"; exit 77; fi
if ! command -v clang++ >/dev/null 2>&1; then
  echo "SKIP: clang++ is not installed (apt-get install clang libclang-rt-14-dev): fuzz smoke not run"; exit 77
fi
if [ ! -f "$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
  echo "SKIP: clang's libFuzzer runtime is missing (apt-get install libclang-rt-14-dev): fuzz smoke not run"; exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
  launcher=""
  command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DNPU_BUILD_FUZZERS=ON -DNPU_BUILD_GUI=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 $launcher >/dev/null || exit 1
fi
# shellcheck disable=SC2086
cmake --build "$build" --target $targets fuzz_seed_corpora >/dev/null || { echo "FAIL: building the fuzz targets"; exit 1; }
# One target: replay its kept crash inputs, then fuzz it SECONDS on a copy of its seeds.
# Prints its result line(s) into $result_dir/$t and exits non-zero on failure.
run_target() {
  t="$1"; out="$result_dir/$t"
  bin="$build/tests/fuzz/$t"
  case "$t" in
    fuzz_onnx_import) seeds="$build/tests/fuzz/corpus" ;;
    fuzz_project_loader) seeds="$build/tests/fuzz/corpus_project" ;;
    fuzz_npuom_load) seeds="$build/tests/fuzz/corpus_npuom" ;;
    fuzz_suite_loader) seeds="$build/tests/fuzz/corpus_suite" ;;
    fuzz_trace_import) seeds="$build/tests/fuzz/corpus_trace" ;;
    fuzz_memory_snapshot) seeds="$build/tests/fuzz/corpus_snapshot" ;;
    fuzz_npudb_open) seeds="$build/tests/fuzz/corpus_npudb" ;;
  esac
  rc_all=0
  if [ -d "$src/tests/fuzz/regressions/$t" ]; then
    "$bin" -runs=0 "$src/tests/fuzz/regressions/$t" >/dev/null 2>&1 || { echo "FAIL: $t crashes on a kept regression input" >> "$out"; rc_all=1; }
  fi
  work=$(mktemp -d)
  cp -r "$seeds" "$work/corpus"
  "$bin" -seed="${NPU_FUZZ_SEED:-1}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" > "$work/log" 2>&1
  rc=$?
  execs=$(grep -m1 'stat::number_of_executed_units' "$work/log" | awk '{print $2}')
  if [ $rc -ne 0 ]; then
    { echo "FAIL: $t (exit $rc); crash input and log kept in $work:"; ls "$work"; tail -40 "$work/log"; } >> "$out"; rc_all=1
  else
    echo "ok: $t ${execs:-?} executions in ${seconds} s" >> "$out"
    rm -rf "$work"
  fi
  return $rc_all
}
# Targets run as many at a time as there are cores (NPU_FUZZ_JOBS overrides): each is one
# single-threaded process, so on CI's 2 cores the smoke takes half the wall time. Results
# print in the targets' order whatever order they finish in.
jobs="${NPU_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
result_dir=$(mktemp -d)
status=0
set -- $targets
while [ $# -gt 0 ]; do
  pids=""
  i=0
  while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
    run_target "$1" & pids="$pids $!"
    shift; i=$((i + 1))
  done
  for pid in $pids; do wait "$pid" || status=1; done
done
for t in $targets; do cat "$result_dir/$t"; done
rm -rf "$result_dir"
exit $status
