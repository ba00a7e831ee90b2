#include "views/timeline/counter_format.h"

#include "profiler/analysis/memory_counter.h"
#include "views/common/units.h"

#include <QByteArray>

namespace npu::views {

namespace {

bool endsWithAny(const QByteArray& s, std::initializer_list<const char*> suffixes) {
    for (const char* x : suffixes)
        if (s.endsWith(x)) return true;
    return false;
}

}  // namespace

CounterUnit counterUnit(std::string_view trackName) {
    const QByteArray lower = QByteArray(trackName.data(), static_cast<qsizetype>(trackName.size())).toLower();
    using Kind = CounterUnit::Kind;
    // Rates and ratios first: "HBM 0/Read Read(MB/s)" names memory but counts bandwidth.
    if (endsWithAny(lower, {"(mb/s)", " mb/s"})) return {Kind::bytes_per_s, 1024.0 * 1024.0};
    if (endsWithAny(lower, {"(gb/s)", " gb/s"})) return {Kind::bytes_per_s, 1024.0 * 1024.0 * 1024.0};
    if (endsWithAny(lower, {"(%)", " %"})) return {Kind::percent, 1};
    if (endsWithAny(lower, {" mhz", "(mhz)"})) return {Kind::megahertz, 1};
    const auto memory = profiler::classifyMemoryCounter(trackName);
    if (memory.kind != profiler::MemoryCounterKind::none) return {Kind::bytes, memory.bytesPerUnit};
    for (const char* key : {"byte", "memory", "mem ", "allocated", "reserved", "hbm"})
        if (lower.contains(key)) return {Kind::bytes, 1};
    return {};
}

QString formatCounterValue(double value, const CounterUnit& unit) {
    switch (unit.kind) {
    case CounterUnit::Kind::bytes: return formatBytes(value * unit.scale);
    case CounterUnit::Kind::bytes_per_s: return formatBytes(value * unit.scale) + QStringLiteral("/s");
    case CounterUnit::Kind::percent: return QString::number(value, 'f', 1) + QStringLiteral(" %");
    case CounterUnit::Kind::megahertz: return QString::number(value, 'f', 0) + QStringLiteral(" MHz");
    case CounterUnit::Kind::count: break;
    }
    return formatCount(value);
}

}  // namespace npu::views
