#!/bin/sh
# Renders docs/runs-page.png (the Runs page, two runs overlaid and a damaged run folder listed) and
# docs/report.png (a run's HTML report in Chromium), from two short tpu-mnist-cnn runs on
# Fashion-MNIST in a throwaway runs folder. Needs a build, the dataset and chromium; offscreen.
set -eu
cd "$(dirname "$0")/.."
app=build/app/gui/trainbench
cli=build/app/cli/trainbench-cli
[ -x "$app" ] && [ -x "$cli" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
data=${1:-/usr/share/datasets/fashion-mnist}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" QT_QPA_PLATFORM=offscreen
runs="$XDG_DATA_HOME/trainbench/runs"
"$cli" train --data "$data" --epochs 6 --max-batches 150 --threads 2 >/dev/null
"$cli" train --data "$data" --epochs 6 --max-batches 150 --threads 2 --optimizer sgd --lr 0.05 --momentum 0.9 >/dev/null
# A run folder whose run.json was cut short, as a crash or a hand edit could leave it.
first=$(ls "$runs" | head -n 1)
damaged="$runs/20000101-000000-tpu-mnist-cnn-cpu-2"
mkdir -p "$damaged"
head -c 700 "$runs/$first/run.json" >"$damaged/run.json"
"$cli" runs list
"$app" --screenshots docs --runs-screenshot
"$cli" report latest -o "$tmp/report.html"
chromium --headless --no-sandbox --disable-gpu --screenshot="$PWD/docs/report.png" --window-size=1200,2500 \
  "file://$tmp/report.html" 2>/dev/null
echo "wrote docs/report.png"
