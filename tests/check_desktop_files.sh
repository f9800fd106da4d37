#!/bin/sh
# The desktop entry and the AppStream metadata as a software centre reads them:
# desktop-file-validate and appstreamcli validate (no network) must accept both.
# usage: check_desktop_files.sh DESKTOP_FILE METAINFO_FILE
set -eu
for tool in desktop-file-validate appstreamcli; do
    command -v $tool >/dev/null || { echo "$tool is missing (scripts/setup-debian.sh installs it)" >&2; exit 1; }
done
desktop-file-validate "$1"
appstreamcli validate --no-net "$2"
