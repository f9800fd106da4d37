#!/usr/bin/env bash
# The ONNX export checked by the real tools: for every preset and a model with the layer options
# the presets do not use, train a few batches, export, check the file with python3-onnx's full
# checker and run it in onnxruntime (tests/interop/run_onnx.js) on 256 test images against
# trainbench-cli's own evaluation.
# usage: onnx_check.sh TRAINBENCH_CLI DATA_DIR WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$1 data=$2 work=$3
py=${TRAINBENCH_PYTHON:-/usr/bin/python3}
"$here/install.sh"
rm -rf "$work" && mkdir -p "$work"
export XDG_DATA_HOME=$work/data-home # the runs' folders: here, not in the user's data
models=$("$cli" presets --kind image | cut -d' ' -f1)
for model in $models "$here/mixed_model.json"; do
  stem=$work/$(basename "$model" .json)
  "$cli" train --data "$data" --model "$model" --epochs 1 --batch 32 --max-batches 20 --seed 19 --threads 2 \
    --save "$stem.tbw" >"$stem.train.log"
  "$cli" export --weights "$stem.tbw" --format onnx --json >"$stem.export.json"
  sha=$(sed -n 's/.*"weights_sha256":"\([0-9a-f]*\)".*/\1/p' "$stem.export.json")
  "$cli" evaluate --data "$data" --weights "$stem.tbw" --limit 256 --predictions "$stem.csv" --json >"$stem.eval.json"
  grep -q "\"weights_sha256\":\"$sha\"" "$stem.eval.json"
  name=$model
  [[ -f $model ]] && name=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' "$model" | head -1)
  "$py" "$here/check_onnx.py" "$stem.onnx" "$name" "$sha" 10
  node "$here/run_onnx.js" "$stem.onnx" "$data" "$stem.csv" 256 1e-4
done
echo "onnx: every export passed onnx.checker (full_check) and matched Trainbench in onnxruntime"
