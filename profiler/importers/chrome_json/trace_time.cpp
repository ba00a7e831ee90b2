#include "profiler/importers/chrome_json/trace_time.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace npu::profiler {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::int64_t> viaDouble(std::string_view s) {
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    const double ns = v * 1000.0;
    if (std::fabs(ns) >= 9.2e18) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ns));
}

}  // namespace

std::optional<std::int64_t> microsTextToNs(std::string_view text) {
    std::string_view s = trim(text);
    if (s.empty()) return std::nullopt;
    bool negative = false;
    size_t i = 0;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t us = 0;
    size_t intDigits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++intDigits) {
        const int d = s[i] - '0';
        if (us > (kMax - d) / 10) return std::nullopt;
        us = us * 10 + d;
    }
    std::int64_t frac = 0;  // nanoseconds from the first three decimals
    size_t fracDigits = 0;
    bool roundUp = false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++fracDigits) {
            if (fracDigits < 3) frac = frac * 10 + (s[i] - '0');
            else if (fracDigits == 3) roundUp = s[i] >= '5';
        }
    }
    if (intDigits == 0 && fracDigits == 0) return std::nullopt;
    if (i < s.size()) {
        if (s[i] == 'e' || s[i] == 'E') return viaDouble(s);
        return std::nullopt;
    }
    for (size_t k = fracDigits; k < 3; ++k) frac *= 10;
    if (us > (kMax - 1000) / 1000) return std::nullopt;
    std::int64_t ns = us * 1000 + frac + (roundUp ? 1 : 0);
    return negative ? -ns : ns;
}

}  // namespace npu::profiler
