#!/bin/bash
# Data-parallel training over MPI on localhost (issue 22): the same seed and global batch give the
# weights of the single process, to the bit, on 1, 2, 3 and 4 ranks (models with BatchNorm and
# Dropout, a text model, batches that are not a multiple of 16 x ranks, so that a rank may hold no shard); a rank
# whose settings differ is named at start-up; a rank killed mid-run ends the job within a bound, a
# stuck rank ends it by the watchdog's message (naming the checkpoint, or that there is none), Ctrl-C (or SIGINT
# to one rank) stops every rank (and while the data loads, says so), and the
# last checkpoint resumes without MPI to the uninterrupted run's weights.
# usage: mpi_training.sh TRAINBENCH_CLI MAKE_TOY_DATASET
set -u
cli=$1
make_dataset=$2
command -v mpirun >/dev/null || { echo "mpirun is missing (apt-get install openmpi-bin)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/data"
"$make_dataset" "$tmp/data" || exit 1
unset TRAINBENCH_ISA
mpi="mpirun --oversubscribe --allow-run-as-root"
fail() { echo "FAIL: $*" >&2; exit 1; }
sha() { sed -n 's/.*weights sha256: \([0-9a-f]*\).*/\1/p' "$1"; }

# The last: a text model (its LSTM reads the Embedding's ids and writes the Embedding's gradient).
runs=("--data $tmp/data --model tpu-mnist-cnn --batch 40 --epochs 2 --seed 3"
      "--data $tmp/data --model colab-fashion-cnn --batch 24 --epochs 1 --seed 5 --optimizer sgd --momentum 0.9"
      "--data $tmp/data --model keras-mnist-cnn --batch 17 --epochs 1 --seed 7 --max-batches 3"
      "--data /usr/share/common-licenses/GPL-3 --model small-text-lstm --batch 40 --epochs 1 --seed 11 --max-batches 3")
for run in "${runs[@]}"; do
    train="train --threads 1 --no-run-folder $run"
    "$cli" $train >"$tmp/single" 2>&1 || fail "single process: $(cat "$tmp/single")"
    want=$(sha "$tmp/single")
    [ -n "$want" ] || fail "no weights hash from the single process"
    for n in 1 2 3 4; do
        $mpi -np $n "$cli" $train >"$tmp/mpi" 2>&1 || fail "-np $n $run: $(cat "$tmp/mpi")"
        grep -q "MPI: $n rank" "$tmp/mpi" || fail "-np $n: the run header does not say MPI: $(head -3 "$tmp/mpi")"
        [ "$(grep -c 'weights sha256' "$tmp/mpi")" = 1 ] || fail "-np $n: not only rank 0 printed"
        [ "$(sha "$tmp/mpi")" = "$want" ] || fail "-np $n $run: $(sha "$tmp/mpi") instead of $want"
    done
    echo "$run: 1-4 ranks give the single process's $want"
done

# Ranks may run different thread counts (nodes of different sizes): the same weights. The messages
# between ranks followed each rank's own thread count, and MPI ended the job (MPI_ERR_TRUNCATE).
run="--data $tmp/data --model colab-fashion-cnn --batch 24 --epochs 1 --seed 5 --no-run-folder"
"$cli" train --threads 2 $run >"$tmp/single" 2>&1 || fail "single process: $(cat "$tmp/single")"
$mpi -np 1 "$cli" train --threads 2 $run : -np 1 "$cli" train --threads 1 $run >"$tmp/mixed" 2>&1 ||
    fail "ranks of 2 and 1 threads: $(cat "$tmp/mixed")"
[ "$(sha "$tmp/mixed")" = "$(sha "$tmp/single")" ] || fail "ranks of 2 and 1 threads: $(sha "$tmp/mixed")"
# The header names each rank's device, not rank 0's for every rank.
grep -q "MPI: 2 ranks: cpu:2@[a-z0-9]* (rank 0), cpu:1@[a-z0-9]* (rank 1)" "$tmp/mixed" ||
    fail "ranks of 2 and 1 threads: the header does not name each: $(head -3 "$tmp/mixed")"
echo "ranks of 2 and 1 threads give the single process's weights, and are each named"

# Settings that differ between ranks are named at start-up.
train="train --data $tmp/data --threads 1 --no-run-folder --model tpu-mnist-cnn --epochs 1"
$mpi -np 1 "$cli" $train --batch 40 : -np 1 "$cli" $train --batch 32 >"$tmp/mismatch" 2>&1 &&
    fail "ranks with different batches trained"
grep -q "MPI rank 1's batch size differs from rank 0's" "$tmp/mismatch" || fail "mismatch: $(cat "$tmp/mismatch")"
echo "a rank with another batch size is named"

# An error on one rank alone (rank 0 makes the run folder) is said, and ends the job with its exit code
# (5, a file error, as one process), not by the watchdog after the others waited for the failed rank.
TRAINBENCH_MPI_TIMEOUT=60 $mpi -np 2 -x TRAINBENCH_MPI_TIMEOUT "$cli" train --data "$tmp/data" --threads 1 \
    --model tpu-mnist-cnn --epochs 1 --runs-dir /proc/no-runs-here >"$tmp/one_fails" 2>&1
status=$?
[ $status = 5 ] || fail "rank 0's error ended the job with status $status: $(cat "$tmp/one_fails")"
grep -q "cannot create the runs folder /proc/no-runs-here" "$tmp/one_fails" || fail "rank 0's error unsaid: $(cat "$tmp/one_fails")"
grep -q "waited [0-9]* s for" "$tmp/one_fails" && fail "the watchdog ended the job: $(cat "$tmp/one_fails")"
echo "an error on rank 0 alone is said and ends the job with its exit code"

# An error every rank meets is said once (rank 0's), not once per rank.
$mpi -np 3 "$cli" train --data "$tmp/no-such-folder" --threads 1 --epochs 1 --no-run-folder >"$tmp/all_fail" 2>&1
status=$?
[ $status = 3 ] || fail "a missing dataset ended the job with status $status: $(cat "$tmp/all_fail")"
[ "$(grep -c "$tmp/no-such-folder does not exist" "$tmp/all_fail")" = 1 ] ||
    fail "not said once: $(cat "$tmp/all_fail")"
# So is one met before the ranks joined the MPI world (a mistyped option): mpirun ends the job.
$mpi -np 3 "$cli" train --bogus >"$tmp/all_usage" 2>&1
status=$?
[ $status = 2 ] || fail "a mistyped option ended the job with status $status: $(cat "$tmp/all_usage")"
[ "$(grep -c "unknown option --bogus" "$tmp/all_usage")" = 1 ] || fail "not said once: $(cat "$tmp/all_usage")"
echo "an error every rank meets is said once"

# The pid of the rank `r` among mpirun's children.
rank_pid() {
    for p in $(pgrep -P "$1"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$p"; return; }
    done
}
# Starts a long run on 3 ranks with a checkpoint every batch; waits for its first checkpoint.
start_long_run() {
    rm -rf "$tmp/runs"
    $mpi -np 3 "$cli" train --data "$tmp/data" --threads 1 --model tpu-mnist-cnn --batch 8 --epochs 12 --seed 9 \
        --runs-dir "$tmp/runs" --checkpoint-every 1 >"$tmp/long" 2>&1 &
    job=$!
    for _ in $(seq 600); do
        ls "$tmp"/runs/*/checkpoint.tbw >/dev/null 2>&1 && break
        sleep 0.1
    done
    ls "$tmp"/runs/*/checkpoint.tbw >/dev/null 2>&1 || fail "no checkpoint: $(cat "$tmp/long")"
    victim=$(rank_pid $job 1)
    [ -n "$victim" ] || fail "rank 1 not found among mpirun's children"
}
# Waits for the job at most $1 seconds; sets status and elapsed.
await_job() {
    local start=$SECONDS
    while kill -0 $job 2>/dev/null && [ $((SECONDS - start)) -lt "$1" ]; do sleep 0.1; done
    elapsed=$((SECONDS - start))
    kill -0 $job 2>/dev/null && { kill -9 $job; fail "the job still ran $1 s after the fault: $(tail -5 "$tmp/long")"; }
    wait $job
    status=$?
}

# Runs a resume ("$@"), named $1 in messages; fails unless it gives the uninterrupted run's weights
# ($tmp/whole).
resumes_to_whole() {
    local what=$1
    shift
    "$@" >"$tmp/resumed" 2>&1 || fail "$what: $(cat "$tmp/resumed")"
    [ "$(sha "$tmp/resumed")" = "$(sha "$tmp/whole")" ] ||
        fail "$what gave $(sha "$tmp/resumed") but the uninterrupted run gives $(sha "$tmp/whole")"
}

# A rank killed mid-run: mpirun ends the job, non-zero, with a message naming the rank, within 20 s.
start_long_run
kill -9 "$victim"
await_job 20
[ $status != 0 ] || fail "the job exited 0 after a rank was killed"
grep -qi "signal 9\|killed" "$tmp/long" || fail "no message names the killed rank: $(tail -20 "$tmp/long")"
echo "a killed rank ended the job in ${elapsed}s (status $status)"

# The last checkpoint resumes without MPI, to the weights of the uninterrupted run.
folder=$(dirname "$(ls "$tmp"/runs/*/checkpoint.tbw)")
cp -r "$folder" "$tmp/copy"
cp -r "$folder" "$tmp/copy2"
"$cli" train --data "$tmp/data" --threads 2 --model tpu-mnist-cnn --batch 8 --epochs 12 --seed 9 --no-run-folder \
    >"$tmp/whole" 2>&1 || fail "uninterrupted run: $(cat "$tmp/whole")"
resumes_to_whole "resume" "$cli" train --resume "$folder" --threads 2
resumes_to_whole "resume on 2 ranks" $mpi -np 2 "$cli" train --resume "$tmp/copy" --threads 1
echo "the last checkpoint resumed without MPI and on 2 ranks to the uninterrupted run's $(sha "$tmp/whole")"

# A rank that resumes beside one that starts anew (--resume latest on nodes with their own runs
# folders) is named before the first step. MPI ended the job with an internal error.
$mpi -np 1 "$cli" train --data "$tmp/data" --threads 1 --model tpu-mnist-cnn --batch 8 --epochs 12 --seed 9 \
    --no-run-folder : -np 1 "$cli" train --resume "$tmp/copy2" --threads 1 >"$tmp/places" 2>&1
status=$?
[ $status = 2 ] || fail "a fresh rank beside a resumed one ended with status $status: $(tail -5 "$tmp/places")"
grep -q "MPI rank 1 is at epoch [0-9]*, step [0-9]* of a resumed run, and rank 0 at the start of a new run" \
    "$tmp/places" || fail "a fresh rank beside a resumed one: $(tail -5 "$tmp/places")"
echo "a rank that resumed beside one that starts anew is named"

# SIGINT to the process whose pid the variable named $2 holds once the run has started (job: mpirun, which
# passes it to every rank; victim: rank 1 alone): the job ends, non-zero, every rank after the same
# step; rank 0 alone says so and names the checkpoint it wrote, which resumes without MPI to the
# uninterrupted run's weights. $1 names the case in messages.
stops_on_sigint() {
    local what=$1
    start_long_run
    kill -INT "${!2}"
    await_job 30
    [ $status != 0 ] || fail "the job exited 0 after $what"
    [ "$(grep -c 'Stopped by the user' "$tmp/long")" = 1 ] || fail "$what: not one rank said it stopped: $(tail -20 "$tmp/long")"
    grep -q "Continue with: trainbench-cli train --resume" "$tmp/long" || fail "$what: no resume line: $(tail -20 "$tmp/long")"
    folder=$(dirname "$(ls "$tmp"/runs/*/checkpoint.tbw)")
    resumes_to_whole "resume after $what" "$cli" train --resume "$folder" --threads 2
    echo "$what ended the job in ${elapsed}s (status $status); its checkpoint resumed to $(sha "$tmp/whole")"
}
stops_on_sigint "Ctrl-C on mpirun" job
stops_on_sigint "SIGINT to rank 1 alone" victim # not rank 0, which writes

# Ctrl-C on mpirun while the ranks read the dataset: rank 0 says so, once, as one process does, and
# nothing is written. mpirun killed the ranks a second after it passed them the signal, without a word.
# Rank 1 is held (SIGSTOP) as soon as it is seen reading the data (Fashion-MNIST's gzip files take
# a few hundred ms; MPI_Init needs every rank, so not before), so that rank 0 waits for it at the
# ranks' check (CpuBackend: requireSameRunOnEveryRank), still loading, when the signal comes (a Zen 5
# under load read the data before mpirun passed the signal on, and the ranks stopped at their first
# step instead). Three races are outside the program, and each makes the attempt start again:
# - a busy machine may run rank 1 through the whole read between two looks at its files, or
# - from the read through the check between the look and the SIGSTOP (rank 1 must still have the
#   file open once held);
# - mpirun sends each rank SIGCONT before SIGTERM, and at times the ending signal came late enough
#   for the ranks to finish loading and start the run ("Run folder" said; here 5 to 9 attempts in 30).
fashion=/usr/share/datasets/fashion-mnist
reads_images() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q "train-images"; }
if [ -d "$fashion" ]; then
    for attempt in $(seq 9); do
        [ $attempt != 9 ] || fail "Ctrl-C while the data loaded: no attempt of 8 held the ranks there: $(cat "$tmp/loading")"
        rm -rf "$tmp/runs"
        $mpi -np 2 "$cli" train --data "$fashion" --threads 1 --epochs 1 --max-batches 2 --runs-dir "$tmp/runs" \
            >"$tmp/loading" 2>&1 &
        job=$!
        reading=
        for _ in $(seq 1000); do
            other=$(rank_pid $job 1)
            [ -n "$other" ] && reads_images "$other" && { kill -STOP "$other"; reading=1; break; }
            kill -0 $job 2>/dev/null || break # it read the data and trained unseen
            sleep 0.01
        done
        if [ -z "$reading" ] || ! reads_images "$other"; then
            echo "rank 1 was not held while it read the images (attempt $attempt): again"
            kill -9 $(pgrep -P $job) 2>/dev/null
            wait $job 2>/dev/null
            continue
        fi
        lead=$(rank_pid $job 0)
        kill -INT $job
        # Rank 1 goes on once rank 0 has ended: before, it could read the data and pass the check with
        # rank 0 ahead of the signal.
        for _ in $(seq 300); do kill -0 "$lead" 2>/dev/null || break; sleep 0.1; done
        kill -CONT "$other" 2>/dev/null
        await_job 30
        grep -q "^Run folder" "$tmp/loading" || break
        echo "mpirun let the ranks start the run before it ended them (attempt $attempt): again"
    done
    [ $status != 0 ] || fail "Ctrl-C while the data loaded: the job exited 0"
    [ "$(grep -c "Stopped by a signal before the run started (Ctrl-C, or mpirun ending the job after another rank's error); nothing was written." "$tmp/loading")" = 1 ] ||
        fail "Ctrl-C while the data loaded: not said once: $(cat "$tmp/loading")"
    [ -z "$(ls "$tmp/runs" 2>/dev/null)" ] || fail "Ctrl-C while the data loaded: a run folder was made"
    echo "Ctrl-C while the ranks read the dataset is said once (status $status)"
else
    echo "skipped Ctrl-C while the data loads: no $fashion"
fi

# A stuck rank (stopped, not dead: mpirun cannot see it): the watchdog ends the job with its message.
export TRAINBENCH_MPI_TIMEOUT=3
start_long_run
kill -STOP "$victim"
await_job 30
# MPI_Abort's code, which mpirun exits with (docs/cli.md's exit codes).
[ $status = 6 ] || fail "the watchdog ended the job with status $status, not 6: $(tail -20 "$tmp/long")"
grep -q "waited [0-9]* s for" "$tmp/long" || fail "no watchdog message: $(tail -20 "$tmp/long")"
# Said by a rank that waited, not by the stuck one once mpirun continued it to end it; naming the
# checkpoint rank 0 wrote, which is there.
grep -q "MPI rank 1 of 3 waited" "$tmp/long" && fail "the stuck rank blamed the others: $(tail -20 "$tmp/long")"
grep -q "checkpoint, $tmp/runs/[^ ]*/checkpoint.tbw (at [a-z0-9 ,]*), is intact" "$tmp/long" ||
    fail "the watchdog's message names no checkpoint: $(tail -20 "$tmp/long")"
echo "a stuck rank ended the job in ${elapsed}s: $(grep -m1 -o "MPI rank [0-9]* of 3 waited [0-9]* s for [a-z0-9 ]*" "$tmp/long")"

# Stuck before its first checkpoint: the message says there is none.
rm -rf "$tmp/runs"
$mpi -np 2 -x TRAINBENCH_MPI_TIMEOUT "$cli" train --data "$tmp/data" --threads 1 --model tpu-mnist-cnn --batch 1 \
    --epochs 2 --seed 9 --runs-dir "$tmp/runs" >"$tmp/long" 2>&1 &
job=$!
for _ in $(seq 600); do
    grep -q "Epoch 1/2" "$tmp/long" && break
    sleep 0.1
done
victim=$(rank_pid $job 1)
[ -n "$victim" ] || fail "rank 1 not found among mpirun's children"
kill -STOP "$victim"
await_job 30
ls "$tmp"/runs/*/checkpoint.tbw >/dev/null 2>&1 && fail "a checkpoint was written in the first epoch"
grep -q "The run wrote no checkpoint yet (in $tmp/runs/[^ ]*): it cannot be resumed." "$tmp/long" ||
    fail "stuck before a checkpoint: $(tail -20 "$tmp/long")"
grep -q "is intact" "$tmp/long" && fail "stuck before a checkpoint, one is claimed: $(tail -20 "$tmp/long")"
echo "a rank stuck before the first checkpoint: the watchdog says there is none"
unset TRAINBENCH_MPI_TIMEOUT
