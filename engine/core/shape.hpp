// Per-sample tensor shapes. Spatial tensors are Keras' (H, W, C); flat ones are (F); sequences are
// (T, F) (h holds the steps T, c the features F) and a sequence of token ids is (T).
// In memory a shard of n samples is laid out [C][n][H][W] when spatial and [n][F] when flat,
// so convolutions become one GEMM per shard and BatchNorm reads each channel contiguously; a
// sequence is [n][T][F], which flat layers see as [n][T*F].
#pragma once

#include <cstdint>
#include <string>

namespace tb {

struct Shape {
    int h = 1;
    int w = 1;
    int c = 1;
    bool spatial = false;
    bool sequence = false; // (T, F): h = T, c = F
    bool tokens = false;   // a sequence of token ids, (T): h = T, c = 1

    static Shape image(int h, int w, int c) { return {h, w, c, true}; }
    static Shape flat(int f) { return {1, 1, f, false}; }
    static Shape seq(int steps, int features) { return {steps, 1, features, false, true}; }
    static Shape tokenIds(int steps) { return {steps, 1, 1, false, true, true}; }
    int steps() const { return sequence ? h : 1; }

    int64_t size() const { return int64_t(h) * w * c; }
    int64_t plane() const { return int64_t(h) * w; }
    // Keras notation: "(None, 28, 28, 1)", "(None, 256)", "(None, 100, 512)" or "(None, 100)".
    std::string keras() const
    {
        if (tokens)
            return "(None, " + std::to_string(h) + ")";
        if (sequence)
            return "(None, " + std::to_string(h) + ", " + std::to_string(c) + ")";
        if (spatial)
            return "(None, " + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(c) + ")";
        return "(None, " + std::to_string(c) + ")";
    }
    bool operator==(const Shape&) const = default;
};

} // namespace tb
