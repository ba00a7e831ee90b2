#include "views/timeline/timeline_settings.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace npu::views {
namespace {

QJsonArray idArray(const auto& ids)
{
    QJsonArray a;
    for (const std::int64_t id : ids)
        a.append(QJsonValue(static_cast<double>(id)));
    return a;
}

std::vector<std::int64_t> ids(const QJsonValue& v)
{
    std::vector<std::int64_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(static_cast<std::int64_t>(x.toDouble()));
    return out;
}

}  // namespace

QString timelineSettingsKey(const std::filesystem::path& database)
{
    std::error_code ec;
    std::filesystem::path p = std::filesystem::weakly_canonical(database, ec);
    if (ec)
        p = std::filesystem::absolute(database, ec).lexically_normal();
    const QByteArray hash = QCryptographicHash::hash(QByteArray::fromStdString(p.string()), QCryptographicHash::Sha1);
    return QStringLiteral("timeline/") + QString::fromLatin1(hash.toHex().left(16));
}

TimelineSettings loadTimelineSettings(const std::filesystem::path& database)
{
    TimelineSettings out;
    if (database.empty())
        return out;
    QSettings settings;
    settings.beginGroup(timelineSettingsKey(database));
    // Stored as JSON text: readable in the settings file, no QVariant type round trips.
    const QJsonObject tracks =
        QJsonDocument::fromJson(settings.value(QStringLiteral("tracks")).toString().toUtf8()).object();
    out.arrangement.pinned = ids(tracks.value(QStringLiteral("pinned")));
    out.arrangement.order = ids(tracks.value(QStringLiteral("order")));
    for (const std::int64_t id : ids(tracks.value(QStringLiteral("hidden"))))
        out.arrangement.hidden.insert(id);
    const QJsonArray flags = QJsonDocument::fromJson(settings.value(QStringLiteral("flags")).toString().toUtf8()).array();
    for (const QJsonValue& f : flags) {
        const QJsonObject o = f.toObject();
        // Nanoseconds since the epoch exceed a double's exact range: kept as text.
        bool ok = false;
        const qint64 t = o.value(QStringLiteral("t_ns")).toString().toLongLong(&ok);
        if (ok)
            out.flags.push_back(TimelineFlag{t, o.value(QStringLiteral("note")).toString()});
    }
    return out;
}

SliceColouring loadSliceColouring()
{
    const QString v = QSettings().value(QStringLiteral("timeline/colour_by")).toString();
    return v == QStringLiteral("name") ? SliceColouring::name : v == QStringLiteral("dtype") ? SliceColouring::dtype : SliceColouring::category;
}

void saveSliceColouring(SliceColouring colouring)
{
    QSettings().setValue(QStringLiteral("timeline/colour_by"),
                         colouring == SliceColouring::name    ? QStringLiteral("name")
                         : colouring == SliceColouring::dtype ? QStringLiteral("dtype")
                                                              : QStringLiteral("category"));
}

void saveTimelineSettings(const std::filesystem::path& database, const TimelineSettings& s)
{
    if (database.empty())
        return;
    QSettings settings;
    settings.beginGroup(timelineSettingsKey(database));
    settings.setValue(QStringLiteral("path"), QString::fromStdString(database.string()));
    QJsonObject tracks;
    tracks.insert(QStringLiteral("pinned"), idArray(s.arrangement.pinned));
    tracks.insert(QStringLiteral("order"), idArray(s.arrangement.order));
    tracks.insert(QStringLiteral("hidden"), idArray(s.arrangement.hidden));
    settings.setValue(QStringLiteral("tracks"), QString::fromUtf8(QJsonDocument(tracks).toJson(QJsonDocument::Compact)));
    QJsonArray flags;
    for (const TimelineFlag& f : s.flags)
        flags.append(QJsonObject{{QStringLiteral("t_ns"), QString::number(f.t_ns)}, {QStringLiteral("note"), f.note}});
    settings.setValue(QStringLiteral("flags"), QString::fromUtf8(QJsonDocument(flags).toJson(QJsonDocument::Compact)));
}

}  // namespace npu::views
