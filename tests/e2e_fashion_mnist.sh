#!/usr/bin/env bash
# Opt-in end-to-end check (CTest label "long"): the train example of docs/cli.md (tpu-mnist-cnn,
# 2 epochs) on the full Fashion-MNIST reaches >= 87% test accuracy, and 1 and 2 threads give the
# same weights hash.
set -euo pipefail
cli=$1
XDG_DATA_HOME=$(mktemp -d) # the runs' folders: here, not in the user's data
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
run() {
  "$cli" train --data /usr/share/datasets/fashion-mnist --model tpu-mnist-cnn --epochs 2 --batch 128 \
    --seed 200 --threads "$1" | tee /dev/stderr | tail -n 1
}
one=$(run 1)
two=$(run 2)
acc=$(sed -E 's/.*test accuracy: ([0-9.]+).*/\1/' <<<"$two")
sha1=${one##*sha256: }
sha2=${two##*sha256: }
echo "test accuracy $acc; sha256 1 thread $sha1, 2 threads $sha2"
[[ "$sha1" == "$sha2" ]] || { echo "FAIL: hashes differ"; exit 1; }
awk -v a="$acc" 'BEGIN { exit !(a >= 0.87) }' || { echo "FAIL: accuracy $acc < 0.87"; exit 1; }
echo "PASS"
