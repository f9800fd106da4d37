#!/bin/sh
# scripts/check-layers.sh passes on the engine, and fails, naming the circle and the include that
# closes it, on a copy of the engine where core/ includes train/ (which uses core/).
set -eu
script=$1
engine=$2
"$script" "$engine"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$engine" "$tmp/engine"
printf '#include "train/trainer.hpp"\n' >>"$tmp/engine/core/errors.hpp"
if "$script" "$tmp/engine" >"$tmp/out"; then
    echo "check-layers accepted core/errors.hpp including train/trainer.hpp"
    exit 1
fi
cat "$tmp/out"
grep -q 'circle: .*core -> .*train' "$tmp/out" || grep -q 'circle: .*train -> .*core' "$tmp/out"
grep -q 'core/errors.hpp includes "train/trainer.hpp"' "$tmp/out"
echo "check-layers: the deliberate circle was refused"
