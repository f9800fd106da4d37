// Counter-based random numbers. Every random draw in training is a pure function of
// (seed, purpose, counters), never of a thread or of a standard-library distribution whose
// output differs between implementations, so runs are bit-identical on any thread count.
#pragma once

#include <cstdint>

namespace tb {

// SplitMix64 finalizer: a strong 64-bit mix.
inline uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline uint64_t hashKey(uint64_t a, uint64_t b)
{
    return mix64(a ^ mix64(b + 0x632BE59BD9B4E019ull));
}
inline uint64_t hashKey(uint64_t a, uint64_t b, uint64_t c)
{
    return hashKey(hashKey(a, b), c);
}
inline uint64_t hashKey(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return hashKey(hashKey(a, b, c), d);
}

// Uniform float in [0, 1) from the top 24 bits.
inline float unitFloat(uint64_t bits)
{
    return float(bits >> 40) * (1.0f / 16777216.0f);
}

// Purposes keep the streams of one seed apart.
enum class RngPurpose : uint64_t { Init = 1, Shuffle = 2, Dropout = 3, Sample = 4 };

// A sequential stream (used for weight init and shuffles).
class Rng {
public:
    explicit Rng(uint64_t key) : m_key(key) {}
    uint64_t next() { return mix64(m_key + 0x9E3779B97F4A7C15ull * ++m_counter); }
    float uniform() { return unitFloat(next()); }
    // Unbiased integer in [0, n) by rejection.
    uint64_t below(uint64_t n)
    {
        const uint64_t limit = ~uint64_t(0) - (~uint64_t(0) % n);
        uint64_t r;
        do {
            r = next();
        } while (r >= limit);
        return r % n;
    }

private:
    uint64_t m_key;
    uint64_t m_counter = 0;
};

} // namespace tb
