#pragma once
// Small helpers for writing JSON text by hand in the streaming exporters.

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::profiler {

// `s` as a quoted JSON string (RFC 8259 escapes; invalid UTF-8 is passed through).
std::string jsonQuoted(std::string_view s);

// Nanoseconds as microseconds with three decimals ("1234.567"), exact for any int64.
std::string microsText(std::int64_t ns);

}  // namespace npu::profiler
