#!/bin/sh
# Renders the text model's screenshots (docs/text-setup.png, docs/text-results.png,
# docs/writing-page-en.png, docs/writing-page-es.png) at 1280x720: trains small-text-lstm on a
# Debian licence text with trainbench-cli (a few minutes on two cores), then drives the window
# offscreen with those weights. Needs a build (scripts/build.sh).
set -eu
cd "$(dirname "$0")/.."
cli=build/app/cli/trainbench-cli
app=build/app/gui/trainbench
[ -x "$cli" ] && [ -x "$app" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
text=${1:-/usr/share/common-licenses/GPL-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
XDG_DATA_HOME=$work/data "$cli" train --data "$text" --model small-text-lstm --optimizer rmsprop --lr 0.005 \
    --batch 32 --epochs 60 --threads 1 --seed 1 --save "$work/text.tbw"
XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config QT_QPA_PLATFORM=offscreen \
    "$app" --screenshots docs --data "$text" --write-screenshot "$work/text.tbw"
rm -f docs/text-results-es.png docs/text-setup-es.png # for looking at the Spanish layout only
