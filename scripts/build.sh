#!/usr/bin/env bash
# Configures and builds Release into build/ (pass extra CMake options as arguments).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$root/build" -j"$(nproc)"
