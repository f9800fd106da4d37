// What a CPU's bf16 instructions do, measured: multiply-adds per second of FP32's FMA, VDPBF16PS
// (AVX512_BF16) and AMX's TDPBF16PS on one core, and which scalar model of the rounding gives each
// instruction's bits. docs/benchmarks.md ("bf16 on an Intel Xeon") has what it printed.
//
//   gcc -O3 -mavx512f -mavx512bf16 -mamx-tile -mamx-bf16 bench/bf16_probe.c -o bf16_probe -lm && ./bf16_probe
//
// Needs AVX512_BF16 to run; the AMX part runs where the CPU has AMX-BF16 and the OS grants it.
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef __float128 Exact; // every sum below of products of bfloat16 values is exact in it

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// Throughput: 24 independent accumulators, so that latency does not count.
#define ACCUMULATORS 24
__attribute__((noinline)) static float fmaLoop(long iters)
{
    __m512 acc[ACCUMULATORS];
    for (int i = 0; i < ACCUMULATORS; ++i)
        acc[i] = _mm512_set1_ps((float)i);
    const __m512 a = _mm512_set1_ps(1.0001f), b = _mm512_set1_ps(0.9999f);
    for (long it = 0; it < iters; ++it)
#pragma GCC unroll 24
        for (int i = 0; i < ACCUMULATORS; ++i)
            acc[i] = _mm512_fmadd_ps(a, b, acc[i]);
    for (int i = 1; i < ACCUMULATORS; ++i)
        acc[0] = _mm512_add_ps(acc[0], acc[i]);
    return _mm512_reduce_add_ps(acc[0]);
}
__attribute__((noinline)) static float dotLoop(long iters)
{
    __m512 acc[ACCUMULATORS];
    for (int i = 0; i < ACCUMULATORS; ++i)
        acc[i] = _mm512_set1_ps((float)i);
    const __m512bh a = (__m512bh)_mm512_set1_epi32(0x3f803f80), b = (__m512bh)_mm512_set1_epi32(0x3f7f3f7f);
    for (long it = 0; it < iters; ++it)
#pragma GCC unroll 24
        for (int i = 0; i < ACCUMULATORS; ++i)
            acc[i] = _mm512_dpbf16_ps(acc[i], a, b);
    for (int i = 1; i < ACCUMULATORS; ++i)
        acc[0] = _mm512_add_ps(acc[0], acc[i]);
    return _mm512_reduce_add_ps(acc[0]);
}

static uint32_t bitsOf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float flushed(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.f, f) : f;
}
static float widen(uint16_t h) // bfloat16 to float, denormals as zero
{
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return flushed(f);
}
static float nearest(Exact x)
{
    return flushed((float)x);
}
static float towardZero(Exact x)
{
    float f = (float)x;
    if ((Exact)fabsf(f) > (x < 0 ? -x : x))
        f = nextafterf(f, 0.f);
    return flushed(f);
}

static uint64_t state = 88172645463325252ull;
static int spread = 20; // binary exponents of the inputs in [-spread, spread)
static uint16_t randomBf16(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    float f = ldexpf(1.f + (float)(state % 1000) / 1000.f, (int)((state >> 20) % (2 * spread)) - spread);
    if ((state >> 40) & 1)
        f = -f;
    return (uint16_t)(bitsOf(f) >> 16);
}

// The scalar models of c + sum over k of (a[2k] b[2k] + a[2k+1] b[2k+1]), k = 0 .. pairs-1.
enum { MODELS = 14 };
static const char* modelNames[MODELS] = {
    "each product a fused add, even then odd",
    "each product a fused add, odd then even (the reference)",
    "each step rounded toward zero, even then odd",
    "each pair's exact sum added, rounded once a pair",
    "each pair's exact sum added, rounded toward zero once a pair",
    "everything summed exactly, rounded once",
    "everything summed exactly, rounded toward zero once",
    "the products summed exactly and rounded, then added to c",
    "each pair's sum rounded, then added in order",
    "each pair's sum rounded, then added in reverse order",
    "each pair's sum rounded, the pairs summed in order, then added to c",
    "each pair's sum rounded, the pairs summed in a tree, then added to c",
    "each pair's sum rounded, two halves summed in order, c + first + second",
    "each pair's sum rounded, two halves summed in order, c + (first + second)",
};
static void models(float c, const uint16_t* a, const uint16_t (*b)[2], int pairs, float out[MODELS])
{
    float evenOdd = c, oddEven = c, zero = c, pairOnce = c, pairZero = c, inOrder = c, reverse = c, sum = 0;
    float halves[2] = {0, 0}, rounded[16];
    Exact all = c, products = 0;
    for (int k = 0; k < pairs; ++k) {
        const float a0 = widen(a[2 * k]), a1 = widen(a[2 * k + 1]), b0 = widen(b[k][0]), b1 = widen(b[k][1]);
        evenOdd = flushed(fmaf(a1, b1, flushed(fmaf(a0, b0, evenOdd))));
        oddEven = flushed(fmaf(a0, b0, flushed(fmaf(a1, b1, oddEven))));
        zero = towardZero((Exact)towardZero((Exact)zero + (Exact)a0 * b0) + (Exact)a1 * b1);
        const Exact pair = (Exact)a0 * b0 + (Exact)a1 * b1;
        pairOnce = nearest((Exact)pairOnce + pair);
        pairZero = towardZero((Exact)pairZero + pair);
        all += pair, products += pair;
        rounded[k] = nearest(pair);
        inOrder = nearest((Exact)inOrder + rounded[k]);
        sum = nearest((Exact)sum + rounded[k]);
        halves[k >= (pairs + 1) / 2] = nearest((Exact)halves[k >= (pairs + 1) / 2] + rounded[k]);
    }
    for (int k = pairs - 1; k >= 0; --k)
        reverse = nearest((Exact)reverse + rounded[k]);
    for (int width = pairs; width > 1; width /= 2)
        for (int i = 0; i < width / 2; ++i)
            rounded[i] = nearest((Exact)rounded[2 * i] + rounded[2 * i + 1]);
    const float o[MODELS] = {evenOdd,
                             oddEven,
                             zero,
                             pairOnce,
                             pairZero,
                             nearest(all),
                             towardZero(all),
                             nearest((Exact)c + nearest(products)),
                             inOrder,
                             reverse,
                             nearest((Exact)c + sum),
                             nearest((Exact)c + rounded[0]),
                             nearest((Exact)nearest((Exact)c + halves[0]) + halves[1]),
                             nearest((Exact)c + nearest((Exact)halves[0] + halves[1]))};
    memcpy(out, o, sizeof o);
}

// C (16x16) += A (16 rows of 2*pairs) B (pairs rows of 16 pairs), by VDPBF16PS or by one TDPBF16PS.
static uint16_t A[16][32], B[16][16][2];
static float C0[16][16], C[16][16];
static void byVdpbf16ps(int pairs)
{
    for (int m = 0; m < 16; ++m) {
        __m512 acc = _mm512_loadu_ps(C0[m]);
        for (int k = 0; k < pairs; ++k) {
            uint32_t pair;
            memcpy(&pair, &A[m][2 * k], 4);
            acc = _mm512_dpbf16_ps(acc, (__m512bh)_mm512_set1_epi32((int)pair), (__m512bh)_mm512_loadu_si512(B[k]));
        }
        _mm512_storeu_ps(C[m], acc);
    }
}
static void byTdpbf16ps(int pairs)
{
    _tile_loadd(0, C0, 64);
    _tile_loadd(1, A, 64);
    _tile_loadd(2, B, 64);
    _tile_dpbf16ps(0, 1, 2);
    _tile_stored(0, C, 64);
}

static void compare(const char* instruction, void (*run)(int), int pairs)
{
    long mismatches[MODELS] = {0}, total = 0;
    for (int trial = 0; trial < 400; ++trial) {
        for (int m = 0; m < 16; ++m)
            for (int k = 0; k < 2 * pairs; ++k)
                A[m][k] = randomBf16();
        for (int k = 0; k < pairs; ++k)
            for (int n = 0; n < 16; ++n)
                B[k][n][0] = randomBf16(), B[k][n][1] = randomBf16();
        for (int m = 0; m < 16; ++m)
            for (int n = 0; n < 16; ++n)
                C0[m][n] = widen(randomBf16());
        run(pairs);
        for (int m = 0; m < 16; ++m)
            for (int n = 0; n < 16; ++n) {
                uint16_t column[16][2];
                for (int k = 0; k < pairs; ++k)
                    column[k][0] = B[k][n][0], column[k][1] = B[k][n][1];
                float out[MODELS];
                models(C0[m][n], A[m], (const uint16_t(*)[2])column, pairs, out);
                for (int i = 0; i < MODELS; ++i)
                    mismatches[i] += bitsOf(out[i]) != bitsOf(C[m][n]);
                ++total;
            }
    }
    printf("%s, %d pair(s) per output (%s), exponents within +-%d: outputs differing from each model, of %ld:\n",
           instruction, pairs, run == byVdpbf16ps ? "one pair per instruction" : "one instruction", spread, total);
    for (int i = 0; i < MODELS; ++i)
        printf("  %7ld  %s\n", mismatches[i], modelNames[i]);
}

int main(void)
{
    const long iters = 20000000;
    volatile float sink = fmaLoop(iters / 10) + dotLoop(iters / 10); // warm-up
    const double t0 = now();
    sink = fmaLoop(iters);
    const double t1 = now();
    sink = dotLoop(iters);
    const double t2 = now();
    (void)sink;
    const double fma = (double)iters * ACCUMULATORS * 16 / (t1 - t0),
                 dot = (double)iters * ACCUMULATORS * 32 / (t2 - t1);
    printf("one core: FP32 FMA %.1f GMAC/s, VDPBF16PS %.1f GMAC/s (%.2fx FMA)\n", fma / 1e9, dot / 1e9, dot / fma);
    for (spread = 3; spread <= 20; spread += 17)
        compare("VDPBF16PS", byVdpbf16ps, 16);

    if (!__builtin_cpu_supports("amx-bf16") ||
        syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XFEATURE_XTILEDATA */) != 0) {
        printf("AMX-BF16: not on this CPU, or not granted by the OS\n");
        return 0;
    }
    struct {
        uint8_t palette, startRow, reserved[14];
        uint16_t bytesPerRow[16];
        uint8_t rows[16];
    } __attribute__((packed)) config;
    for (int pairs = 1; pairs <= 16; pairs += 15) {
        memset(&config, 0, sizeof config);
        config.palette = 1;
        config.bytesPerRow[0] = 64, config.rows[0] = 16;             // C
        config.bytesPerRow[1] = 4 * pairs, config.rows[1] = 16;      // A
        config.bytesPerRow[2] = 64, config.rows[2] = (uint8_t)pairs; // B
        _tile_loadconfig(&config);
        for (spread = 3; spread <= 20; spread += 17)
            compare("TDPBF16PS", byTdpbf16ps, pairs);
    }
    // Throughput: four accumulator tiles, two A and two B (four chains only, so a lower bound).
    for (int t = 0; t < 8; ++t)
        config.bytesPerRow[t] = 64, config.rows[t] = 16;
    _tile_loadconfig(&config);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_loadd(4, A, 64);
    _tile_loadd(5, A, 64);
    _tile_loadd(6, B, 64);
    _tile_loadd(7, B, 64);
    const long calls = 2000000;
    const double t3 = now();
    for (long i = 0; i < calls; ++i) {
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
    const double t4 = now();
    _tile_stored(0, C, 64);
    _tile_release();
    const double amx = calls * 4.0 * 16 * 16 * 32 / (t4 - t3);
    printf("one core: TDPBF16PS %.1f GMAC/s (%.1fx FMA)\n", amx / 1e9, amx / fma);
    return 0;
}
