#!/bin/sh
# The .deb: cpack builds it from the install rules; its control fields and file list must be what a
# Debian desktop needs; run as root, apt installs it, both programs start from /usr/bin (the
# window offscreen), `man -w` finds both man pages, and it is removed again. Not root: the install
# step is skipped, saying so.
# usage: check_package.sh BUILD_DIR
set -eu
build=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log" >&2; fail "cpack"; }
deb=$(ls "$out"/trainbench_*_amd64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "no trainbench_*_amd64.deb in $(ls "$out")"
depends=$(dpkg-deb -f "$deb" Depends)
for dep in libqt6widgets6 libqt6charts6 zlib1g libstdc++6 qt6-qpa-plugins; do
    echo "$depends" | grep -q "$dep" || fail "Depends lacks $dep: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/trainbench ./usr/bin/trainbench-cli ./usr/share/applications/org.trainbench.Trainbench.desktop \
         ./usr/share/metainfo/org.trainbench.Trainbench.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/trainbench.svg \
         ./usr/share/icons/hicolor/48x48/apps/trainbench.png ./usr/share/icons/hicolor/256x256/apps/trainbench.png \
         ./usr/share/man/man1/trainbench-cli.1.gz ./usr/share/man/man1/trainbench.1.gz; do
    echo "$files" | grep -qx "$f" || fail "the package lacks $f"
done
echo "$(basename "$deb"): Depends: $depends"
# trainbench-cli(1) gives every command's options with their help (COMMANDS), not only the usage.
mkdir "$out/page"
(cd "$out/page" && dpkg-deb --fsys-tarfile "$deb" | tar -x ./usr/share/man/man1/trainbench-cli.1.gz)
page=$(gzip -dc "$out/page/usr/share/man/man1/trainbench-cli.1.gz")
commands=$(printf '%s\n' "$page" | sed -n '/^\.SH USAGE/,/^\.SH COMMANDS/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ] || fail "trainbench-cli(1) names no command in its usage"
for c in $commands; do
    printf '%s\n' "$page" | grep -qx "\.SS $c" || fail "trainbench-cli(1) has no section for the command $c"
done
printf '%s\n' "$page" | grep -q '^  \\-\\-predictions FILE\.csv  *each test image' ||
    fail "trainbench-cli(1) does not describe evaluate's --predictions"
echo "trainbench-cli(1) describes the commands:" $commands

if [ "$(id -u)" -ne 0 ]; then
    echo "not root: the apt install step is skipped"
    exit 0
fi
# Another apt-get or dpkg on this machine (a second build's suite, an engineer installing a package)
# holds the dpkg lock for a while: apt-get waits for it (up to 10 minutes) instead of failing. Two
# runs of this test at once would install and remove the same package under each other: they take
# turns on a lock of their own.
exec 9>/tmp/trainbench-deb-package-test.lock
flock -w 1200 9 || fail "another run of this test held /tmp/trainbench-deb-package-test.lock for 20 minutes"
apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; }
if dpkg-query -W -f='${Status}' trainbench 2>/dev/null | grep -q "install ok installed"; then
    fail "a trainbench package is already installed here; remove it first (apt-get remove trainbench)"
fi
trap 'apt_get remove -y trainbench >/dev/null 2>&1 || true; rm -rf "$out"' EXIT
apt_get install -y "$deb" >"$out/apt.log" 2>&1 || { cat "$out/apt.log" >&2; fail "apt install"; }
/usr/bin/trainbench-cli --version | grep -q "^trainbench-cli " || fail "trainbench-cli --version"
QT_QPA_PLATFORM=offscreen /usr/bin/trainbench --version | grep -q "Trainbench" || fail "trainbench --version"
# The man pages: found by man, and what they say is the programs' --help. A dpkg told to leave man
# pages out (path-exclude, as in minimal container images) would make this fail: say why.
excluded=$(grep -ls '^path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/* 2>/dev/null || true)
[ -z "$excluded" ] || fail "dpkg here leaves man pages out (path-exclude in $excluded): the man page check cannot run"
command -v man >/dev/null || fail "no man command: apt-get install man-db (scripts/setup-debian.sh installs it)"
for page in trainbench-cli trainbench; do
    where=$(man -w "$page") || fail "man -w $page finds no page after installing the package"
    [ "$where" = "/usr/share/man/man1/$page.1.gz" ] || fail "man -w $page: $where, not the package's page"
    echo "man -w $page: $where"
done
MANWIDTH=200 man trainbench-cli 2>/dev/null | grep -q -- "--checkpoint-every N" || fail "man trainbench-cli lacks the usage's --checkpoint-every N"
MANWIDTH=200 man trainbench 2>/dev/null | grep -q -- "dataset  *A dataset folder of IDX files, or a text file" ||
    fail "man trainbench lacks the usage's dataset argument"
echo "installed with apt; trainbench-cli and trainbench (offscreen) start from /usr/bin, man finds their pages; removed again"
