#!/usr/bin/env bash
# The text models' exports checked by the real tools: a small LSTM trains a few batches on a Debian
# licence and exports ONNX and safetensors; python3-onnx's full checker passes the ONNX file,
# onnxruntime (run_text_onnx.js) and PyTorch's nn.Embedding/nn.LSTM/nn.Linear (text_torch_check.py,
# load_state_dict strict=True) give the same next-symbol probabilities as Trainbench within 1e-4; and
# a file PyTorch wrote (its own initialization, both LSTM biases) imports and agrees the other way.
# usage: text_check.sh TRAINBENCH_CLI WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$1 work=$2
py=${TRAINBENCH_PYTHON:-/usr/bin/python3}
text=/usr/share/common-licenses/GPL-3
prompt="This License applies to any program or other work which contains a notice"
"$here/install.sh"
rm -rf "$work" && mkdir -p "$work"
for model in small-text-lstm "$here/text_model.json"; do
  stem=$work/$(basename "$model" .json)
  "$cli" train --data "$text" --model "$model" --epochs 1 --batch 16 --max-batches 8 --sequence-length 48 \
    --seed 19 --threads 2 --no-run-folder --save "$stem.tbw" >"$stem.train.log"
  "$cli" export --weights "$stem.tbw" --format onnx --json >"$stem.export.json"
  "$cli" export --weights "$stem.tbw" --format safetensors >/dev/null
  sha=$(sed -n 's/.*"weights_sha256":"\([0-9a-f]*\)".*/\1/p' "$stem.export.json")
  "$cli" generate --weights "$stem.tbw" --prompt "$prompt" --length 0 --probabilities "$stem.csv" >/dev/null
  name=$model
  [[ -f $model ]] && name=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' "$model" | head -1)
  "$py" "$here/check_onnx.py" "$stem.onnx" "$name" "$sha" 256 tokens
  node "$here/run_text_onnx.js" "$stem.onnx" "$stem.csv" 1e-4
  "$py" "$here/text_torch_check.py" "$stem.safetensors" "$stem.csv" 1e-4 "$cli" "$model" "$text"
done
echo "text: every export passed onnx.checker and matched Trainbench in onnxruntime and PyTorch (strict=True), and PyTorch's own weights imported"
