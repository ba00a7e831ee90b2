#pragma once
// Time axis arithmetic for the ruler: nice 1-2-5 tick steps and labels in adaptive units
// (ns, µs, ms, s). Times are relative to the ruler's origin (the trace start).

#include <QString>

#include <cstdint>

namespace npu::views {

// The smallest step of the form {1, 2, 5} x 10^k ns (at least 1 ns) that keeps ticks at
// least minSpacingPx apart when rangeNs spans widthPx pixels.
std::int64_t niceTickStep(std::int64_t rangeNs, double widthPx, double minSpacingPx);

struct RulerScale {
    std::int64_t step = 1;       // ns between major ticks
    std::int64_t firstTick = 0;  // first multiple of step at or after the range start
    std::int64_t unit = 1;       // ns per label unit: 1, 1e3, 1e6 or 1e9
    int decimals = 0;            // digits after the point so consecutive labels differ
};

RulerScale chooseRulerScale(std::int64_t t0Rel, std::int64_t t1Rel, double widthPx, double minSpacingPx = 90);

// "1.2345 ms": value (ns) in the scale's unit with its decimals.
QString formatTick(std::int64_t valueNs, const RulerScale& scale);

// Durations for tooltips and the range label, three significant digits: "12.3 µs".
QString formatDuration(std::int64_t ns);

QString unitSuffix(std::int64_t unit);

}  // namespace npu::views
