#include "views/timeline/counter_format.h"

#include "views/common/units.h"

#include <QByteArray>


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
    return bytes ? formatBytes(value) : formatCount(value);
}

}  // namespace npu::views
