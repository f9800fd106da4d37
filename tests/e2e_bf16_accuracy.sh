#!/usr/bin/env bash
# Opt-in accuracy check of bf16 (CTest label "long", issue 31): tpu-mnist-cnn and colab-fashion-cnn
# trained 2 epochs on the full Fashion-MNIST (seed 200, batch 128, 2 threads) in FP32 and in bf16;
# bf16's test accuracy must be within 0.3 points of FP32's. On a CPU without AVX512_BF16 the test
# says why and is skipped (exit 77).
# usage: e2e_bf16_accuracy.sh TRAINBENCH_CLI [MODELS]
set -euo pipefail
cli=$1
models=${2:-tpu-mnist-cnn colab-fashion-cnn}
XDG_DATA_HOME=$(mktemp -d) # the runs' folders: here, not in the user's data
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
logs=$XDG_DATA_HOME/logs
mkdir "$logs"
if ! why=$("$cli" train --data /usr/share/datasets/fashion-mnist --model tpu-mnist-cnn --epochs 1 --max-batches 1 \
    --precision bf16 --threads 1 --no-run-folder 2>&1); then
  echo "SKIP: bf16 cannot run here: ${why##*$'\n'}"
  exit 77
fi
run() { # model precision: prints the test accuracy; the run's last lines go to stderr
  if ! "$cli" train --data /usr/share/datasets/fashion-mnist --model "$1" --epochs 2 --batch 128 --seed 200 \
    --threads 2 --precision "$2" --no-run-folder >"$logs/$1-$2" 2>&1; then
    tail -n 20 "$logs/$1-$2" >&2
    return 1
  fi
  tail -n 3 "$logs/$1-$2" >&2
  tail -n 1 "$logs/$1-$2" | sed -E 's/.*test accuracy: ([0-9.]+).*/\1/'
}
status=0
for model in $models; do
  fp32=$(run "$model" fp32)
  bf16=$(run "$model" bf16)
  echo "$model: test accuracy fp32 $fp32, bf16 $bf16"
  if ! awk -v a="$fp32" -v b="$bf16" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.003) }'; then
    echo "FAIL: $model's bf16 accuracy is more than 0.3 points from FP32's"
    status=1
  fi
done
[[ $status == 0 ]] && echo "PASS"
exit $status
