#pragma once
// Human-readable units for the views, as QString: the formats are base/units' (the one
// formatter of the project, shared with the batch output and the reports), so every
// table, chart and console line speaks the same units.

#include <QString>

#include <cstdint>

namespace npu::views {

QString formatDuration(double ns);          // "812 ns", "15.3 µs", "4.21 ms", "1.50 s"
QString formatBytes(double bytes);          // "512 B", "3.5 MiB", "141.0 GiB"
QString formatCount(double value);          // "6.74 G", "168.3 M", "512"
QString formatFlops(double flops);          // "1.23 PFLOP", "8192 FLOP"
QString formatPercent(double fraction);     // 0.123 -> "12.3 %"
// A trace clock reading: a wall-clock date when the clock counts from the Unix epoch
// (torch_npu, recent Kineto), "2025-01-09 07:48:04.368 UTC"; else the raw "123456 ns".
QString formatTimestamp(std::int64_t ns);

// Picks one unit for an axis whose values span up to maxNs; returns the divisor.
struct TimeUnit {
    double divisor = 1;
    QString suffix;
};
TimeUnit timeUnitFor(double maxNs);

struct ByteUnit {
    double divisor = 1;
    QString suffix;
};
ByteUnit byteUnitFor(double maxBytes);

}  // namespace npu::views
