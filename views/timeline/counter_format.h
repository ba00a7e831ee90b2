#pragma once
// Counter value labels in the unit the track's name declares: memory in binary byte units
// (scaled when the name says KB/MB/GB: Ascend's "APP/HBM KB"), bandwidths ("Read(MB/s)")
// as bytes per second, frequencies ("AI Core Freq MHz") and ratios ("Hit Rate(%)") with
// their unit, anything else as a plain count.

#include <QString>

#include <string_view>

namespace npu::views {

struct CounterUnit {
    enum class Kind { count, bytes, bytes_per_s, percent, megahertz };
    Kind kind = Kind::count;
    double scale = 1;  // multiply a sample by it to get bytes (bytes, bytes_per_s)
};

// Memory counters are recognised by profiler::classifyMemoryCounter (the one reader of
// memory track names); the rest by their unit suffix.
CounterUnit counterUnit(std::string_view trackName);
QString formatCounterValue(double value, const CounterUnit& unit);

}  // namespace npu::views
