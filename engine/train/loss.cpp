#include "train/loss.hpp"

#include "kernels/exp_poly.hpp"

#include <cmath>
#include <vector>

namespace tb {

namespace {
// e[c] = exp(z[c] - zmax) for one row; a loop that vectorizes (a text model's 256 classes at every
// step made libm's scalar exp, twice per class, a tenth of a training step).
void shiftedExp(const float* __restrict z, float zmax, int classes, float* __restrict e)
{
    for (int c = 0; c < classes; ++c)
        e[c] = expPoly(z[c] - zmax);
}

// The sum of e in eight interleaved partial sums (a vector's lanes), then those in order: the same
// order on every CPU and thread count.
double rowSum(const float* e, int classes)
{
    constexpr int kLanes = 8;
    float part[kLanes] = {};
    int c = 0;
    for (; c + kLanes <= classes; c += kLanes)
        for (int l = 0; l < kLanes; ++l)
            part[l] += e[c + l];
    for (int l = 0; c < classes; ++c, ++l)
        part[l] += e[c];
    double total = 0.0;
    for (float p : part)
        total += double(p);
    return total;
}
} // namespace

LossSums softmaxCrossEntropy(const float* logits, const uint8_t* labels, int n, int classes, float gradScale,
                             float* dlogits, float* probs)
{
    LossSums sums;
    std::vector<float> scratch(probs || dlogits ? 0 : size_t(classes));
    for (int i = 0; i < n; ++i) {
        const float* z = logits + int64_t(i) * classes;
        int arg = 0;
        float zmax = z[0];
        for (int c = 1; c < classes; ++c)
            if (z[c] > zmax) {
                zmax = z[c];
                arg = c;
            }
        // The exponentials go where the probabilities or the gradient will be, then become them.
        float* e = probs ? probs + int64_t(i) * classes : dlogits ? dlogits + int64_t(i) * classes : scratch.data();
        shiftedExp(z, zmax, classes, e);
        const double total = rowSum(e, classes);
        const int label = labels[i];
        sums.loss += std::log(total) - double(z[label] - zmax);
        sums.correct += arg == label ? 1 : 0;
        const float inv = float(1.0 / total);
        for (int c = 0; c < classes; ++c)
            e[c] *= inv;
        if (dlogits) {
            float* d = dlogits + int64_t(i) * classes;
            for (int c = 0; c < classes; ++c)
                d[c] = e[c] * gradScale;
            d[label] -= gradScale;
        }
    }
    return sums;
}

} // namespace tb
