#include "profiler/exporters/json_text.h"

#include <cstdio>

namespace npu::profiler {

std::string jsonQuoted(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

std::string microsText(std::int64_t ns) {
    const bool negative = ns < 0;
    // Work in unsigned so INT64_MIN does not overflow on negation.
    const std::uint64_t mag = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%llu.%03llu", negative ? "-" : "", static_cast<unsigned long long>(mag / 1000),
                  static_cast<unsigned long long>(mag % 1000));
    return buf;
}

}  // namespace npu::profiler
