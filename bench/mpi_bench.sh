#!/bin/bash
# Data-parallel throughput on this machine (issue 22): training samples/s and the bytes rank 0 sends
# and receives per step, for one process on 2 threads, 1 rank on 2 threads and 2 ranks on 1 thread
# each (the same cores), with the same global batch. docs/benchmarks.md's scaling estimate starts from these.
# usage: bench/mpi_bench.sh TRAINBENCH_CLI [DATA_DIR] [MODEL] [BATCH] [BATCHES]
set -euo pipefail
cli=$1
data=${2:-/usr/share/datasets/fashion-mnist}
model=${3:-tpu-mnist-cnn}
batch=${4:-128}
batches=${5:-60}
train=(train --data "$data" --model "$model" --batch "$batch" --epochs 1 --max-batches "$batches" --no-run-folder --json)
mpi=(mpirun --oversubscribe --allow-run-as-root --bind-to none)
report() {
    python3 -c '
import json, sys
events = [json.loads(l) for l in sys.stdin if l.startswith("{")]
epoch = next(e for e in events if e["event"] == "epoch")
done = next(e for e in events if e["event"] == "done")
rate, sent, sha = epoch["samples_per_sec"], done.get("mpi_bytes_per_step", 0), done["weights_sha256"][:16]
print(f"{sys.argv[1]:<22} {rate:9.1f} samples/s  {sent:>12,} bytes/step  sha256 {sha}")
' "$1"
}
echo "$model, batch $batch, $batches steps on $data ($(nproc) cores)"
"$cli" "${train[@]}" --threads 2 | report "1 process x 2 threads"
"${mpi[@]}" -np 1 "$cli" "${train[@]}" --threads 2 | report "1 rank x 2 threads"
"${mpi[@]}" -np 2 "$cli" "${train[@]}" --threads 1 | report "2 ranks x 1 thread"
