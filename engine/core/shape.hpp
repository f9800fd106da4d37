// Per-sample tensor shapes. Spatial tensors are Keras' (H, W, C); flat ones are (F).
// In memory a shard of n samples is laid out [C][n][H][W] when spatial and [n][F] when flat,
// so convolutions become one GEMM per shard and BatchNorm reads each channel contiguously.
#pragma once

#include <cstdint>
#include <string>

namespace tb {

struct Shape {
    int h = 1;
    int w = 1;
    int c = 1;
    bool spatial = false;

    static Shape image(int h, int w, int c) { return {h, w, c, true}; }
    static Shape flat(int f) { return {1, 1, f, false}; }

    int64_t size() const { return int64_t(h) * w * c; }
    int64_t plane() const { return int64_t(h) * w; }
    // Keras notation: "(None, 28, 28, 1)" or "(None, 256)".
    std::string keras() const
    {
        if (spatial)
            return "(None, " + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(c) + ")";
        return "(None, " + std::to_string(c) + ")";
    }
    bool operator==(const Shape&) const = default;
};

} // namespace tb
