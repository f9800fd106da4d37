// Whole numbers read from JSON that came from outside (run records, checkpoints). nlohmann's
// get<int>() converts a fraction or a number beyond the type's range (1e90) with a plain cast,
// which is undefined behaviour (found by fuzz_run_record); jsonWhole refuses them instead.
#pragma once

#include "core/errors.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace tb {

// The whole number `v` holds, when it fits T; throws tb::DataError naming `what` otherwise.
template <typename T> T jsonWhole(const nlohmann::ordered_json& v, const std::string& what)
{
    static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        if (u <= uint64_t(hi))
            return T(u);
    } else if (v.is_number_integer()) {
        const int64_t s = v.get<int64_t>();
        if (s >= int64_t(lo) && s <= int64_t(hi))
            return T(s);
    } else if (v.is_number_float()) {
        // The bounds -2^(bits-1) and 2^(bits-1) are exact as doubles, so the comparison is too.
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && d >= double(lo) && d < -double(lo))
            return T(d);
    }
    throw DataError(what + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
}

} // namespace tb
