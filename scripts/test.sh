#!/usr/bin/env bash
# Installs what is needed, builds Release and runs the whole test suite under CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh"
"$root/scripts/check-format.sh"
cd "$root/build"
# -j: as many tests at once as cores (the suite passes on a busy machine; serial, it ran one core idle).
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" -LE long
