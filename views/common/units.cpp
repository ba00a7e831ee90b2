#include "views/common/units.h"

#include <QDateTime>

#include <cmath>

namespace npu::views {

TimeUnit timeUnitFor(double maxNs) {
    const double a = std::abs(maxNs);
    if (a >= 1e9) return {1e9, QStringLiteral("s")};
    if (a >= 1e6) return {1e6, QStringLiteral("ms")};
    if (a >= 1e3) return {1e3, QStringLiteral("µs")};
    return {1, QStringLiteral("ns")};
}

ByteUnit byteUnitFor(double maxBytes) {
    const double a = std::abs(maxBytes);
    if (a >= 1024.0 * 1024 * 1024) return {1024.0 * 1024 * 1024, QStringLiteral("GiB")};
    if (a >= 1024.0 * 1024) return {1024.0 * 1024, QStringLiteral("MiB")};
    if (a >= 1024.0) return {1024.0, QStringLiteral("KiB")};
    return {1, QStringLiteral("B")};
}

// Three significant digits reads well in tables without hiding differences.
static QString threeDigits(double v) {
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return QString::number(v, 'f', decimals);
}

QString formatDuration(double ns) {
    if (ns == 0) return QStringLiteral("0");
    if (std::abs(ns) < 1000) return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
    const TimeUnit u = timeUnitFor(ns);
    return threeDigits(ns / u.divisor) + QLatin1Char(' ') + u.suffix;
}

QString formatBytes(double bytes) {
    const ByteUnit u = byteUnitFor(bytes);
    if (u.divisor == 1) return QString::number(bytes, 'f', 0) + QStringLiteral(" B");
    return threeDigits(bytes / u.divisor) + QLatin1Char(' ') + u.suffix;
}

QString formatCount(double value) {
    const double a = std::abs(value);
    if (a >= 1e15) return threeDigits(value / 1e15) + QStringLiteral(" P");
    if (a >= 1e12) return threeDigits(value / 1e12) + QStringLiteral(" T");
    if (a >= 1e9) return threeDigits(value / 1e9) + QStringLiteral(" G");
    if (a >= 1e6) return threeDigits(value / 1e6) + QStringLiteral(" M");
    if (a >= 1e4) return threeDigits(value / 1e3) + QStringLiteral(" k");
    return QString::number(value, 'f', a == std::floor(a) ? 0 : 2);
}

QString formatFlops(double flops) { return formatCount(flops) + QStringLiteral("FLOP"); }

QString formatPercent(double fraction) { return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %"); }

QString formatTimestamp(std::int64_t ns) {
    // Between 2000 and 2100 in ns since the epoch: a wall clock. Monotonic trace clocks
    // (CUPTI's, older Kineto's) count from boot and land far below.
    constexpr std::int64_t from2000 = 946684800LL * 1000000000LL, to2100 = 4102444800LL * 1000000000LL;
    if (ns < from2000 || ns >= to2100) return QString::number(ns) + QStringLiteral(" ns");
    return QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz 'UTC'"));
}

}  // namespace npu::views
