#!/bin/sh
# Renders the screenshots of the window for the user guide (docs/guide/: empty, setup, setup with
# bf16, training, results, Spanish) into docs/, training tpu-mnist-cnn briefly on Fashion-MNIST. Needs a build
# (scripts/build.sh) and the dataset-fashion-mnist package; runs offscreen, no display needed.
set -eu
cd "$(dirname "$0")/.."
app=build/app/gui/trainbench
[ -x "$app" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
data=${1:-/usr/share/datasets/fashion-mnist}
# A throwaway settings folder, so the tour neither reads nor changes the user's settings.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
XDG_CONFIG_HOME=$config QT_QPA_PLATFORM=offscreen "$app" --screenshots docs --data "$data"
