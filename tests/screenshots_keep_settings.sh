#!/bin/sh
# The window's screenshot modes leave the user's settings as they were: they start from a throwaway
# settings file (a new user's report: the tour rewrote Trainbench.conf, its recent datasets, model and
# hyperparameters). The quickest mode runs here: the Runs page's, which builds the whole window and
# then stops, saying why, on a runs folder without two completed runs.
# usage: screenshots_keep_settings.sh TRAINBENCH
set -eu
window=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/config/Trainbench"
printf '[train]\nbatch=77\n' >"$tmp/config/Trainbench/Trainbench.conf"
cp "$tmp/config/Trainbench/Trainbench.conf" "$tmp/before.conf"
status=0
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data \
    "$window" --screenshots "$tmp/shots" --runs-screenshot >"$tmp/out" 2>&1 || status=$?
grep -q "fewer than two completed runs" "$tmp/out" || { echo "FAIL: exit $status: $(cat "$tmp/out")" >&2; exit 1; }
if ! cmp -s "$tmp/before.conf" "$tmp/config/Trainbench/Trainbench.conf"; then
    echo "FAIL: the screenshots changed the user's settings:" >&2
    diff "$tmp/before.conf" "$tmp/config/Trainbench/Trainbench.conf" >&2 || true
    exit 1
fi
echo "the user's settings are unchanged"
