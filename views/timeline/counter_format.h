#pragma once
// Counter value labels: bytes in binary units for memory tracks, SI-ish otherwise.

#include <QString>

#include <string_view>

namespace npu::views {

// Memory-like track names ("Total Allocated", "HBM bytes", "memory") get byte units.
bool looksLikeBytes(std::string_view trackName);
QString formatCounterValue(double value, bool bytes);

}  // namespace npu::views
