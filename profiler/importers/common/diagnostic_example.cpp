#include "profiler/importers/common/diagnostic_example.h"

#include <charconv>

namespace npu::profiler {
namespace {

// The quoted text right after `key` ("name \"", "begin event \""), without escapes.
std::string quotedAfter(std::string_view text, std::string_view key)
{
    const auto at = text.find(key);
    if (at == std::string_view::npos)
        return {};
    const auto start = at + key.size();
    const auto end = text.find('"', start);
    return end == std::string_view::npos ? std::string() : std::string(text.substr(start, end - start));
}

// The integer between `key` and " ns".
std::optional<std::int64_t> nanosecondsAfter(std::string_view text, std::string_view key)
{
    const auto at = text.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    const char* first = text.data() + at + key.size();
    const char* last = text.data() + text.size();
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || std::string_view(ptr, static_cast<std::size_t>(last - ptr)).substr(0, 3) != " ns")
        return std::nullopt;
    return v;
}

}  // namespace

DiagnosticEvent diagnosticEventOf(std::string_view example)
{
    DiagnosticEvent e;
    e.name = quotedAfter(example, "name \"");
    if (e.name.empty())
        e.name = quotedAfter(example, "begin event \"");
    e.ts = nanosecondsAfter(example, ", ts ");
    if (!e.ts)
        e.ts = nanosecondsAfter(example, "\" at ");
    return e;
}

}  // namespace npu::profiler
