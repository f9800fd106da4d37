// Sparse categorical cross-entropy fused with softmax, over one shard of logits [n][classes].
#pragma once

#include <cstdint>

namespace tb {

struct LossSums {
    double loss = 0.0; // sum over the shard's samples of -log p(label)
    int correct = 0;   // argmax == label
};

// dlogits (may be null) receives (softmax - onehot) * gradScale; probs (may be null) the softmax.
LossSums softmaxCrossEntropy(const float* logits, const uint8_t* labels, int n, int classes, float gradScale,
                             float* dlogits, float* probs);

} // namespace tb
