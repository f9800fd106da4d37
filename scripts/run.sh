#!/usr/bin/env bash
# Installs what is needed, builds Release and runs Trainbench: the desktop window when it is
# built, otherwise the headless trainer on Fashion-MNIST with the default preset.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh"
if [[ -x "$root/build/app/gui/trainbench" && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" || -n "${QT_QPA_PLATFORM:-}" ) ]]; then
  exec "$root/build/app/gui/trainbench" "$@"
fi
exec "$root/build/app/cli/trainbench-cli" train --data /usr/share/datasets/fashion-mnist --model tpu-mnist-cnn \
  --epochs 2 --batch 128 --seed 200 "$@"
