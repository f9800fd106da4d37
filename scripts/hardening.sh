#!/usr/bin/env bash
# CI's second half (after scripts/test.sh): the fuzz targets under libFuzzer with ASan+UBSan, the
# whole unit-test suite built with ASan+UBSan (no recovery: any finding fails its test), and the
# threaded tests built with ThreadSanitizer. Each in its own build folder; each step's wall time and
# CPU time (user+sys of everything it ran) are printed at the end.
#
#   scripts/hardening.sh                 everything (FUZZ_SECONDS=50 per target)
#   scripts/hardening.sh fuzz asan tsan  some steps only
#   FUZZ_SECONDS=14400 scripts/hardening.sh fuzz    fuzz each target for four hours
#
# The three builds are compiled at -O1 with line tables only (-g1, clang's -gline-tables-only):
# enough for the sanitizers' stack traces with file and line, and half or less of the CPU time of
# RelWithDebInfo's -O2 -g (most of CI's time is these builds). They build only what their step runs:
# not the window's executable, the benchmark or the qemu helper (TRAINBENCH_SANITIZE excludes them);
# the engine's and the window's libraries as unity builds, and in the ASan+UBSan build the code
# around the engine at -O0 (CMakeLists.txt says why).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${JOBS:-$(nproc)}
# Eleven targets two at a time on CI's two cores: six rounds of 50 s, the time ten targets' five
# rounds of 60 s took.
fuzz_seconds=${FUZZ_SECONDS:-50}
steps=("$@")
((${#steps[@]})) || steps=(fuzz asan tsan)
times=()

cpu_now() {  # sets $cpu: user+sys seconds of this shell's finished children (bash's `times`, 2nd line)
  local f
  f=$(mktemp)
  times >"$f"  # not in $(...): a subshell's `times` starts from zero
  cpu=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; ++i) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$f")
  rm -f "$f"
}

step() {  # step NAME COMMAND...: runs and times one step
  local name=$1 start=$SECONDS cpu0
  cpu_now
  cpu0=$cpu
  shift
  echo "=== hardening: $name"
  "$@"
  cpu_now
  times+=("$(printf '%-30s %5d s wall %6d s CPU' "$name" $((SECONDS - start)) $((cpu - cpu0)))")
}

# -DNDEBUG as RelWithDebInfo has it (Eigen's per-coefficient asserts would slow the tests down).
gcc_flags="-O1 -g1 -DNDEBUG"
clang_flags="-O1 -gline-tables-only -DNDEBUG"
configure() {  # configure DIR FLAGS CMAKE-OPTIONS...
  local dir=$1 flags=$2
  shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" "$@" >/dev/null
}

# Every target has its seed corpus, fuzz/corpus/<target>/ (fuzz/CMakeLists.txt): a target added there
# is fuzzed here without another list to keep (fuzz_batch_curve was built and never run).
fuzz_targets=()
for d in fuzz/corpus/fuzz_*/; do
  d=${d%/}
  fuzz_targets+=("${d##*/}")
done

fuzz_build() {
  CC=clang-14 CXX=clang++-14 configure build-fuzz "$clang_flags" -DTRAINBENCH_FUZZ=ON
  cmake --build build-fuzz -j"$jobs"
}

# One target for $fuzz_seconds: the tree's corpus and regressions are read, new inputs go to a
# scratch corpus (build-fuzz/corpus/<target>), a crash leaves its input in build-fuzz/findings/.
fuzz_one() {
  local t=$1 work=build-fuzz/corpus/$t
  mkdir -p "$work" build-fuzz/findings
  local dirs=("$work" "fuzz/corpus/$t")
  [[ -d fuzz/regressions/$t ]] && dirs+=("fuzz/regressions/$t")
  # -rss_limit_mb/-malloc_limit_mb: an allocation the input does not justify is a finding.
  "build-fuzz/fuzz/$t" -max_total_time="$fuzz_seconds" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$t-" "${dirs[@]}" >"build-fuzz/$t.log" 2>&1 || {
    tail -n 60 "build-fuzz/$t.log"
    echo "hardening: $t found a bug; its input is in build-fuzz/findings/" >&2
    return 1
  }
  local runs rate
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/$t.log" | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "build-fuzz/$t.log" | grep -o '[0-9]*$')
  printf 'fuzz: %-18s %8s exec/s %12s executions in %s s\n' "$t" "$rate" "$runs" "$fuzz_seconds"
}

fuzz_run() {
  # As many targets at once as there are cores.
  local pids=() failed=0
  for t in "${fuzz_targets[@]}"; do
    fuzz_one "$t" &
    pids+=($!)
    if ((${#pids[@]} >= jobs)); then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  return $failed
}

asan_build() {
  configure build-asan "$gcc_flags" -DTRAINBENCH_SANITIZE=address
  cmake --build build-asan -j"$jobs"
}
asan_test() {
  # Every test of the suite but those that check packaging rather than code (the .desktop file, the
  # .deb, the translations, all run by scripts/test.sh), the qemu and objdump checks, which
  # cannot run an instrumented binary, the window's executable's (not built here), and the MPI test (its ranks run under mpirun with Open MPI's
  # uninstrumented libraries; not tried under ASan). TRAINBENCH_SANITIZED: the timing checks (event-loop stalls, a
  # batch's duration) only report. QTEST_FUNCTION_TIMEOUT: Qt Test's 5-minute watchdog per function
  # fired on a loaded machine (ctest's own timeout still holds). The fuzz_*_corpus replays are not
  # built here (CMakeLists.txt): the fuzz step above already runs every corpus and regression input
  # under ASan+UBSan (clang's), and the replays took 283 s of this step's 856 s CPU.
  (cd build-asan && QT_QPA_PLATFORM=offscreen TRAINBENCH_SANITIZED=1 QTEST_FUNCTION_TIMEOUT=900000 \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$root/scripts/sanitizers/lsan.supp" \
    ctest --output-on-failure -j"$jobs" -LE "long|interop" \
    -E "^(qemu_portability|isa_leaks|isa_leaks_window|screenshots_keep_settings|desktop_files|deb_package|translations_complete|mpi_training)$")
}

tsan_tests=(tst_core tst_training tst_ui_window tst_ui_new_user tst_ui_text)
tsan_build() {
  configure build-tsan "$gcc_flags" -DTRAINBENCH_SANITIZE=thread
  cmake --build build-tsan -j"$jobs" --target "${tsan_tests[@]}"
}
tsan_test() {
  # The threaded tests: the thread pool (tst_core), the trainer on several threads (tst_training's
  # functions that train on several threads or stop a run from another thread; its numerics-only
  # functions, levelsAgree and testResultEqualsEvaluationOfSavedWeights, run in the Release and ASan
  # suites), and the window's worker threads: runs started, paused, stopped and closed mid-run, the
  # Compare page's, a text model's training and writing (tst_ui_window, tst_ui_new_user and
  # tst_ui_text, whole). Not tst_ui_resume: it starts the CLI with QProcess, and TSan refuses a fork
  # once threads run.
  # suppress_equal_addresses=0: with it on (the default), every race TSan finds, suppressed ones
  # included, is first looked up in a list of the addresses seen so far, one by one; Qt's hand-offs
  # (see tsan.supp) add thousands, and that search took 85% of the window tests' time (three of
  # tst_ui_window's functions: 358 s in CI, 5 s without it). Off, each race goes straight to the
  # suppressions; an unsuppressed one still fails (halt_on_error).
  local env=(QT_QPA_PLATFORM=offscreen TRAINBENCH_SANITIZED=1 QTEST_FUNCTION_TIMEOUT=900000
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppress_equal_addresses=0:suppressions=$root/scripts/sanitizers/tsan.supp")
  (cd build-tsan && env "${env[@]}" ctest --output-on-failure -R '^tst_core$')
  (cd build-tsan/tests && env "${env[@]}" ./tst_training sameSeedSameWeightsOnAnyThreadCount \
    winogradSameWeightsOnAnyThreadCount ranksGiveTheWeightsOfOneProcess toyModelLearns cancellationStopsBetweenBatches \
    cancellationStopsTheValidation \
    divergenceKeepsOnlyGoodWeights)
  local t
  for t in tst_ui_window tst_ui_new_user tst_ui_text; do
    (cd build-tsan/tests && env "${env[@]}" "./$t")
  done
}

for s in "${steps[@]}"; do
  case $s in
  fuzz) step "fuzz build" fuzz_build; step "fuzz run (${fuzz_seconds} s each)" fuzz_run ;;
  asan) step "ASan+UBSan build" asan_build; step "ASan+UBSan tests" asan_test ;;
  tsan) step "TSan build" tsan_build; step "TSan tests" tsan_test ;;
  *) echo "hardening: unknown step $s (fuzz, asan or tsan)" >&2; exit 2 ;;
  esac
done
echo "=== hardening: time per step (CPU: user+sys of all its processes; on a dedicated machine wall ~ CPU / cores)"
printf '%s\n' "${times[@]}"
