#pragma once
// Chrome trace timestamps are microseconds written as integers, floats or strings
// ("1699999999999.123", as the Ascend profiler writes them). Epoch timestamps reach
// ~1.7e15 us, past what a double holds to the nanosecond, so the decimal text is
// converted to integer nanoseconds digit by digit instead of through a double.

#include <cstdint>
#include <optional>
#include <string_view>

namespace npu::profiler {

// Exact for plain decimals (optional sign, digits, '.', digits), rounding half away
// from zero past the third decimal; falls back to a double for exponent notation.
// nullopt for text that is not a number or overflows int64 nanoseconds.
std::optional<std::int64_t> microsTextToNs(std::string_view text);

}  // namespace npu::profiler
