#include "views/timeline/counter_format.h"

#include <QByteArray>

#include <array>
#include <cmath>

namespace npu::views {

bool looksLikeBytes(std::string_view trackName)
{
    const QByteArray lower = QByteArray(trackName.data(), static_cast<qsizetype>(trackName.size())).toLower();
    for (const char* key : {"byte", "memory", "mem ", "allocated", "reserved", "hbm"}) {
        if (lower.contains(key))
            return true;
    }
    return false;
}

QString formatCounterValue(double value, bool bytes)
{
    const double a = std::fabs(value);
    if (bytes) {
        static constexpr std::array<const char*, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
        double v = value;
        std::size_t u = 0;
        while (std::fabs(v) >= 1024 && u + 1 < units.size()) {
            v /= 1024;
            ++u;
        }
        return QString::number(v, 'f', u == 0 ? 0 : 2) + QLatin1Char(' ') + QLatin1String(units[u]);
    }
    if (a >= 1e9)
        return QString::number(value / 1e9, 'f', 2) + QStringLiteral(" G");
    if (a >= 1e6)
        return QString::number(value / 1e6, 'f', 2) + QStringLiteral(" M");
    if (a >= 1e4)
        return QString::number(value / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(value, 'g', 4);
}

}  // namespace npu::views
