#!/bin/sh
# Fails when a binary has AVX (VEX- or EVEX-encoded) instructions outside the per-level kernels,
# i.e. outside the namespaces tb::isa_avx2, tb::isa_avx512, tb::isa_avx512bf16, tb::isa_amxbf16 and
# tb::isa_amxemulated. Such code runs before or around the run-time dispatch and would die with
# "illegal instruction" on a CPU without AVX; it comes from a helper or template that a kernel
# source compiled under a name shared with other code, which the linker then merged
# (kernels/isa_kernels.hpp).
# usage: check_isa_leaks.sh BINARY...
set -eu
status=0
for bin in "$@"; do
    leaks=$(objdump -d --no-show-raw-insn -C "$bin" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
        /^ +[0-9a-f]+:\t/ {
            insn = $0; sub(/^ +[0-9a-f]+:\t/, "", insn)
            if (fn ~ /tb::isa_avx2::|tb::isa_avx512::|tb::isa_avx512bf16::|tb::isa_amxbf16::|tb::isa_amxemulated::/) next
            # VEX/EVEX: AVX registers, or the v-prefixed encodings of SSE and scalar FP instructions.
            if (insn ~ /%[yz]mm|%k[0-7]/ || insn ~ /^v[a-z0-9]+[ \t]/ || insn ~ /^(andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx)[ \t]/) {
                if (!(fn in seen)) { seen[fn] = 1; print fn ": " insn }
            }
        }')
    if [ -n "$leaks" ]; then
        echo "$bin: AVX instructions outside the per-level kernels:" >&2
        echo "$leaks" | head -40 >&2
        status=1
    else
        echo "$bin: no AVX instructions outside tb::isa_avx2, tb::isa_avx512, tb::isa_avx512bf16 and tb::isa_amx*"
    fi
done
exit $status
