#include "views/timeline/time_ruler.h"

#include "views/common/units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace npu::views {

std::int64_t niceTickStep(std::int64_t rangeNs, double widthPx, double minSpacingPx)
{
    if (rangeNs <= 0 || widthPx <= 0)
        return 1;
    const double raw = static_cast<double>(rangeNs) * minSpacingPx / widthPx;
    std::int64_t decade = 1;
    // Walk decades in integers: floating log10 misrounds exact powers of ten.
    while (decade <= INT64_MAX / 10) {
        for (const std::int64_t m : {1, 2, 5}) {
            if (static_cast<double>(decade * m) >= raw)
                return decade * m;
        }
        decade *= 10;
    }
    return decade;
}

static std::int64_t unitFor(std::int64_t magnitude)
{
    if (magnitude >= 1'000'000'000)
        return 1'000'000'000;
    if (magnitude >= 1'000'000)
        return 1'000'000;
    if (magnitude >= 1'000)
        return 1'000;
    return 1;
}

RulerScale chooseRulerScale(std::int64_t t0Rel, std::int64_t t1Rel, double widthPx, double minSpacingPx)
{
    RulerScale scale;
    scale.step = niceTickStep(t1Rel - t0Rel, widthPx, minSpacingPx);
    // Floor division that also works for negative times (views before the origin).
    std::int64_t q = t0Rel / scale.step;
    if (q * scale.step < t0Rel)
        ++q;
    scale.firstTick = q * scale.step;
    // The label unit follows the largest value shown, so labels read like "1.25 ms" rather
    // than "1250000 ns"; decimals then resolve one step.
    const std::int64_t magnitude = std::max(std::llabs(t0Rel), std::llabs(t1Rel));
    scale.unit = std::max(unitFor(magnitude), std::int64_t{1});
    int decimals = 0;
    for (std::int64_t u = scale.unit; u > 1 && scale.step % u != 0; u /= 10)
        ++decimals;
    scale.decimals = decimals;
    return scale;
}

QString unitSuffix(std::int64_t unit)
{
    switch (unit) {
    case 1'000'000'000: return QStringLiteral(" s");
    case 1'000'000: return QStringLiteral(" ms");
    case 1'000: return QStringLiteral(" µs");
    default: return QStringLiteral(" ns");
    }
}

QString formatTick(std::int64_t valueNs, const RulerScale& scale)
{
    if (valueNs == 0)
        return QStringLiteral("0");
    const double v = static_cast<double>(valueNs) / static_cast<double>(scale.unit);
    return QString::number(v, 'f', scale.decimals) + unitSuffix(scale.unit);
}

QString formatDuration(std::int64_t ns)
{
    // The shared formatter (views/common/units.h) writes a bare "0"; the ruler keeps a unit.
    return ns == 0 ? QStringLiteral("0 ns") : formatDuration(static_cast<double>(ns));
}

}  // namespace npu::views
