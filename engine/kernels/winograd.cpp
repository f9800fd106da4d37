// Winograd's transforms (kernels/winograd.hpp): one vector per matrix element over 16 or 8
// channels, read from zero-padded channels-last copies of the images (kernels/winograd_tiles.hpp).
#include "kernels/isa_kernels.hpp"
#include "kernels/winograd_tiles.hpp"

namespace tb::TB_ISA {

namespace {
// r[k] = channel c0 + k's affine of r[k] (kernel::ChannelAffine).
template <bool Relu> void affineChannels(Floats8 (&r)[8], const kernel::ChannelAffine& a, int c0)
{
    for (int k = 0; k < 8; ++k)
        r[k] = bnAffineOf<Relu>(r[k], a.mul[c0 + k], a.add[c0 + k]);
}

template <class F, int Lanes>
void outputTiles(const TileGrid& g, const float* M, int channels, int n, int s0, int cn, float* y, int fold,
                 const float* bias, Activation act, const kernel::ChannelAffine* after)
{
    constexpr int kOut = F::kOut;
    const int64_t P = g.tiles(cn), stride = winograd::matrixStride(P, channels);
    const int64_t* offsets = channelOffsets(g, channels, n, fold);
    const int64_t W = int64_t(g.w) * fold, hw = int64_t(g.h) * fold * W;
    // One row of tiles goes channels-last into `stage` ([kOut][tilesW * kOut][C]), then out to the
    // channel planes: 8 pixels x 8 channels at a time through a register transpose when unfolded.
    thread_local Scratch<float> stageScratch;
    const int stageW = g.tilesW * kOut;
    float* stage = stageScratch.get(int64_t(kOut) * stageW * channels);
    const bool transposed = fold == 1 && channels % 8 == 0 && stageW >= 8;
    int64_t p = 0;
    for (int s = 0; s < cn; ++s)
        for (int ty = 0; ty < g.tilesH; ++ty) {
            for (int tx = 0; tx < g.tilesW; ++tx, ++p)
                forLaneBlocks<Lanes>(channels, [&](int c0, auto lanes) {
                    using Vec = typename LaneVec<decltype(lanes)::value>::type;
                    const float* tile = M + p * channels + c0;
                    float* corner = stage + int64_t(tx) * kOut * channels + c0;
                    transform2dWith<decltype(lanes)::value, F::kTile, kOut>(
                        [=](int i, int j) { return load<Vec>(tile + (i * F::kTile + j) * stride); },
                        [=](int i, int j, Vec v) { store(corner + (int64_t(i) * stageW + j) * channels, v); },
                        [](const auto& in, auto& out) { F::output(in, out); });
                });
            // The bias and the activation on the staged row of tiles (channels-last: a row per pixel),
            // then the inference BatchNorm folded in (`after`, in the transpose's registers when
            // there is one), instead of passes over y afterwards; the same arithmetic. Only the
            // pixels stored: the padding past the image's edge (a quarter of a 7x7 image's 4x4 tiles,
            // 13% of a 14x14 one's 5x5 tiles) is not.
            for (int i = 0; i < kOut && ty * kOut + i < g.h; ++i) {
                float* row = stage + int64_t(i) * stageW * channels;
                if (bias || act != Activation::Linear)
                    rowBiasActivate(act, row, g.w, channels, 0, channels, bias);
                if (after && !transposed)
                    bnAffine(kernel::BnShard{false, channels, g.w, 1, after->relu}, row, row, after->mul, after->add);
            }
            float* base = y + (s0 + s) * hw;
            for (int i = 0; i < kOut && ty * kOut + i < g.h; ++i) {
                const float* row = stage + int64_t(i) * stageW * channels;
                float* out = base + int64_t(ty * kOut + i) * fold * W;
                if (transposed) {
                    for (int ix0 = 0; ix0 < g.w; ix0 += 8) {
                        // The last block may overlap the one before, or (narrow images) reach past
                        // the image into the stage's padding, which is not stored.
                        const int x0 = std::max(0, std::min(ix0, g.w - 8));
                        const int count = std::min(8, g.w - x0);
                        for (int c0 = 0; c0 < channels; c0 += 8) {
                            Floats8 r[8];
                            for (int k = 0; k < 8; ++k)
                                r[k] = load<Floats8>(row + int64_t(x0 + k) * channels + c0);
                            transpose8(r);
                            if (after && after->relu)
                                affineChannels<true>(r, *after, c0);
                            else if (after)
                                affineChannels<false>(r, *after, c0);
                            for (int k = 0; k < 8; ++k)
                                storeFirst(out + offsets[c0 + k] + x0, r[k], count);
                        }
                    }
                    continue;
                }
                for (int j = 0; j < g.w; ++j) {
                    const float* src = row + int64_t(j) * channels;
                    float* dst = out + int64_t(j) * fold;
                    for (int c = 0; c < channels; ++c)
                        dst[offsets[c]] = src[c];
                }
            }
        }
}

template <class F> void kernelGradientTiles(const float* dU, int cout, int cin, float* dW)
{
    constexpr int kk = F::kKernel * F::kKernel, kElems = F::kElems;
    constexpr auto GT = transpose(F::G);
    const int64_t ldu = winograd::gradientRowStride(kElems, cin);
    float u[kElems * kTransformLanes];
    float gk[kk * kTransformLanes], byLane[kk * kTransformLanes];
    for (int co = 0; co < cout; ++co) {
        const float* block = dU + co * ldu; // [E][Cin']
        for (int ci0 = 0; ci0 < cin; ci0 += kTransformLanes) {
            const int lanes = std::min(kTransformLanes, cin - ci0);
            // 8 channels at a time (cin is a multiple of 8), in copies of a fixed size: element-wise
            // stores here stalled the transform's vector loads of u, and a copy of `lanes` floats
            // became a `rep movs` (each took half of this function's time).
            for (int e = 0; e < kElems; ++e) {
                float* row = u + e * kTransformLanes;
                const float* src = block + int64_t(e) * cin + ci0;
                __builtin_prefetch(src + 2 * ldu); // two output channels ahead
                for (int l = 0; l < kTransformLanes; l += 8) {
                    if (l < lanes)
                        std::memcpy(row + l, src + l, sizeof(float) * 8);
                    else
                        std::memset(row + l, 0, sizeof(float) * 8);
                }
            }
            transform2d<kTransformLanes, F::kTile, F::kKernel>(u, gk, byMatrix(GT.v));
            // The lanes' kernels are contiguous in dW ([lane][kk]); gk is [kk][lane]: transposed in
            // registers, then added as vectors (element by element, it was a fifth of this function).
            // dW (a shard's gradient, cold since the last step's sum) is fetched 4 blocks ahead: its
            // loads were a third of this function.
            transposeMatrix(gk, kk, lanes, kTransformLanes, byLane, kk);
            float* dst = dW + (int64_t(co) * cin + ci0) * kk;
            for (int j = 0; j < kk * kTransformLanes; j += 16)
                __builtin_prefetch(dst + 4 * kk * kTransformLanes + j, 1);
            for (int j = 0; j < lanes * kk; ++j)
                dst[j] += byLane[j];
        }
    }
}

} // namespace

void winogradInput(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    winogradInputAs<StoreFloats>(g, x, channels, n, s0, cn, V, fold);
}

void winogradOutput(const TileGrid& g, const float* M, int channels, int n, int s0, int cn, float* y, int fold,
                    const float* bias, Activation act, const kernel::ChannelAffine* after)
{
    dispatch(g.kind, channels, [&](auto f, auto lanes) {
        outputTiles<decltype(f), decltype(lanes)::value>(g, M, channels, n, s0, cn, y, fold, bias, act, after);
    });
}

void winogradOutputGradient(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z)
{
    winogradOutputGradientAs<StoreFloats>(g, dy, channels, n, s0, cn, Z);
}

void winogradKernel(Kind kind, const float* w, int cout, int cin, bool transposed, int r0, int r1, float* U)
{
    winogradKernelAs<StoreKernelPanels>(kind, w, cout, cin, transposed, r0, r1, U);
}

void winogradKernelRows(Kind kind, const float* w, int cout, int cin, bool transposed, int r0, int r1, float* U)
{
    winogradKernelAs<StoreKernelRows>(kind, w, cout, cin, transposed, r0, r1, U);
}

void winogradKernelGradient(Kind kind, const float* dU, int cout, int cin, float* dW)
{
    withVariant(kind, [&](auto f) { kernelGradientTiles<decltype(f)>(dU, cout, cin, dW); });
}

} // namespace tb::TB_ISA
