#!/bin/sh
# The portable binary on older CPUs, emulated by qemu-user: on a Nehalem (SSE4.2, no AVX) it must
# start, pick the baseline kernels, refuse AVX2 with a clear message and train; on a Haswell
# (AVX2+FMA, no AVX-512) pick avx2. Each emulated run's weights must equal, to the bit, those of
# the same level run natively: nothing outside the chosen level executed an instruction the
# emulated CPU lacks, and the level's arithmetic is the same on any CPU that has it. bf16 is refused
# there with its reason.
# usage: qemu_portability.sh TRAINBENCH_CLI MAKE_TOY_DATASET
set -eu
cli=$1
make_dataset=$2
if ! command -v qemu-x86_64 >/dev/null; then
    echo "qemu-x86_64 is missing (apt-get install qemu-user; scripts/setup-debian.sh installs it)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/data"
export XDG_DATA_HOME=$tmp/data-home # the runs' folders: here, not in the user's data
"$make_dataset" "$tmp/data"
unset TRAINBENCH_ISA
train="train --data $tmp/data --model tpu-mnist-cnn --batch 16 --max-batches 2 --threads 2 --seed 3"

sha() { sed -n 's/.*weights sha256: \([0-9a-f]*\).*/\1/p' "$1"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

for cpu in Nehalem Haswell; do
    case $cpu in Nehalem) level=baseline ;; Haswell) level=avx2 ;; esac
    qemu-x86_64 -cpu $cpu "$cli" devices >"$tmp/devices" 2>/dev/null || fail "$cpu: devices did not run"
    grep -q "^kernels  $level kernels" "$tmp/devices" || fail "$cpu: devices did not pick $level: $(cat "$tmp/devices")"
    qemu-x86_64 -cpu $cpu "$cli" $train >"$tmp/emulated" 2>"$tmp/err" || fail "$cpu: train failed: $(cat "$tmp/err")"
    grep -q "$level kernels" "$tmp/emulated" || fail "$cpu: the run header does not name $level"
    "$cli" $train --isa $level >"$tmp/native" 2>&1 || fail "native --isa $level failed"
    [ -n "$(sha "$tmp/emulated")" ] || fail "$cpu: no weights hash"
    [ "$(sha "$tmp/emulated")" = "$(sha "$tmp/native")" ] ||
        fail "$cpu: weights differ from the native $level run: $(sha "$tmp/emulated") vs $(sha "$tmp/native")"
    echo "$cpu: $level kernels, weights identical to the native $level run ($(sha "$tmp/native"))"
done

# A level the CPU lacks is a usage error with a message, from the option and from the variable.
status=0
qemu-x86_64 -cpu Nehalem "$cli" $train --isa avx2 >/dev/null 2>"$tmp/err" || status=$?
[ $status -eq 2 ] && grep -q "this CPU has no AVX2+FMA" "$tmp/err" || fail "Nehalem --isa avx2: exit $status, $(cat "$tmp/err")"
status=0
TRAINBENCH_ISA=avx512 qemu-x86_64 -cpu Haswell "$cli" $train >/dev/null 2>"$tmp/err" || status=$?
[ $status -eq 2 ] && grep -q "TRAINBENCH_ISA=avx512: this CPU has no AVX-512" "$tmp/err" ||
    fail "Haswell TRAINBENCH_ISA=avx512: exit $status, $(cat "$tmp/err")"
echo "unsupported levels refused with exit code 2 and a message"

# bf16 on a CPU without AVX512_BF16 (the emulated Haswell): refused before training, with the
# reason; never emulated.
status=0
qemu-x86_64 -cpu Haswell "$cli" $train --precision bf16 >/dev/null 2>"$tmp/err" || status=$?
[ $status -eq 2 ] && grep -q "this CPU has no AVX512_BF16" "$tmp/err" ||
    fail "Haswell --precision bf16: exit $status, $(cat "$tmp/err")"
echo "bf16 refused on a CPU without AVX512_BF16: $(tail -n 1 "$tmp/err")"
