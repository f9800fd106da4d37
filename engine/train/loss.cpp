#include "train/loss.hpp"

#include <cmath>

namespace tb {

LossSums softmaxCrossEntropy(const float* logits, const uint8_t* labels, int n, int classes, float gradScale,
                             float* dlogits, float* probs)
{
    LossSums sums;
    for (int i = 0; i < n; ++i) {
        const float* z = logits + int64_t(i) * classes;
        int arg = 0;
        float zmax = z[0];
        for (int c = 1; c < classes; ++c)
            if (z[c] > zmax) {
                zmax = z[c];
                arg = c;
            }
        double total = 0.0;
        for (int c = 0; c < classes; ++c)
            total += std::exp(double(z[c] - zmax));
        const double logTotal = std::log(total);
        const int label = labels[i];
        sums.loss += logTotal - double(z[label] - zmax);
        sums.correct += arg == label ? 1 : 0;
        for (int c = 0; c < classes; ++c) {
            const float p = float(std::exp(double(z[c] - zmax) - logTotal));
            if (probs)
                probs[int64_t(i) * classes + c] = p;
            if (dlogits)
                dlogits[int64_t(i) * classes + c] = (p - (c == label ? 1.0f : 0.0f)) * gradScale;
        }
    }
    return sums;
}

} // namespace tb
