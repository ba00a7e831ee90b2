#include "views/common/units.h"

#include "base/units.h"

#include <QDateTime>

namespace npu::views {

// The views speak base/units' formats; these only hand them over as QString.
TimeUnit timeUnitFor(double maxNs) {
    const units::Unit u = units::timeUnitFor(maxNs);
    return {u.divisor, QString::fromUtf8(u.suffix.data(), static_cast<qsizetype>(u.suffix.size()))};
}

ByteUnit byteUnitFor(double maxBytes) {
    const units::Unit u = units::byteUnitFor(maxBytes);
    return {u.divisor, QString::fromUtf8(u.suffix.data(), static_cast<qsizetype>(u.suffix.size()))};
}

QString formatDuration(double ns) { return QString::fromStdString(units::duration(ns)); }
QString formatBytes(double bytes) { return QString::fromStdString(units::bytes(bytes)); }
QString formatCount(double value) { return QString::fromStdString(units::count(value)); }
QString formatFlops(double flops) { return QString::fromStdString(units::flops(flops)); }
QString formatPercent(double fraction) { return QString::fromStdString(units::percent(fraction)); }

QString formatTimestamp(std::int64_t ns) {
    // Between 2000 and 2100 in ns since the epoch: a wall clock. Monotonic trace clocks
    // (CUPTI's, older Kineto's) count from boot and land far below.
    constexpr std::int64_t from2000 = 946684800LL * 1000000000LL, to2100 = 4102444800LL * 1000000000LL;
    if (ns < from2000 || ns >= to2100) return QString::number(ns) + QStringLiteral(" ns");
    return QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz 'UTC'"));
}

}  // namespace npu::views
