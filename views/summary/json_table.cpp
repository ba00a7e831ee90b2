#include "views/summary/json_table.h"

#include "views/common/units.h"

#include <algorithm>
#include <cmath>

namespace npu::views {

using nlohmann::json;

static bool endsWith(const std::string& s, const char* suffix) {
    const std::string t(suffix);
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

QString humanizeKey(const std::string& key) {
    std::string k = key;
    QString unit;
    for (const auto& [suffix, u] : {std::pair{"_us", ""}, {"_ns", ""}, {"_ms", ""}, {"_bytes", ""}, {"_pct", " %"}}) {
        if (endsWith(k, suffix)) {
            k.resize(k.size() - std::string(suffix).size());
            unit = QString::fromLatin1(u);
            break;
        }
    }
    QString out = QString::fromStdString(k).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!out.isEmpty()) out[0] = out[0].toUpper();
    return out + unit;
}

RecordCell jsonCell(const std::string& key, const json& v) {
    if (v.is_number()) {
        const double d = v.get<double>();
        if (endsWith(key, "_us")) return {formatDuration(d * 1e3), d, QStringLiteral("%1 µs").arg(d, 0, 'f', 3)};
        if (endsWith(key, "_ms")) return {formatDuration(d * 1e6), d, QStringLiteral("%1 ms").arg(d, 0, 'f', 3)};
        // The store's time_min_ns / time_max_ns are clock readings, not durations.
        if (endsWith(key, "_ns") && key.rfind("time_", 0) == 0 && v.is_number_integer())
            return {formatTimestamp(v.get<std::int64_t>()), d, QStringLiteral("%1 ns").arg(v.get<qlonglong>())};
        if (endsWith(key, "_ns")) return {formatDuration(d), d, QStringLiteral("%1 ns").arg(d, 0, 'f', 0)};
        if (endsWith(key, "_bytes")) return {formatBytes(d), d, QStringLiteral("%1 bytes").arg(qlonglong(d))};
        if (endsWith(key, "_pct")) return {QString::number(d, 'f', 1), d};
        if (key.find("flops") != std::string::npos && d >= 1e4) return {formatFlops(d), d, QString::number(d, 'g', 12)};
        if (v.is_number_unsigned()) return {QString::number(v.get<qulonglong>()), d};
        if (v.is_number_integer()) return {QString::number(v.get<qlonglong>()), d};  // exact, whatever its size
        if (d == std::floor(d) && std::abs(d) < 1e15) return {QString::number(qlonglong(d)), d};
        return {QString::number(d, 'g', 6), d};
    }
    if (v.is_string()) return {QString::fromStdString(v.get<std::string>())};
    if (v.is_boolean()) return {v.get<bool>() ? QStringLiteral("yes") : QStringLiteral("no")};
    if (v.is_null()) return {QStringLiteral("—")};
    return {QString::fromStdString(v.dump()).left(200), {}, QString::fromStdString(v.dump())};
}

void fillFromJsonRows(RecordTableModel& model, const json& rows, const std::vector<std::string>& columns) {
    std::vector<std::string> present;
    if (rows.is_array())
        for (const auto& r : rows)
            if (r.is_object())
                for (auto it = r.begin(); it != r.end(); ++it)
                    if (std::find(present.begin(), present.end(), it.key()) == present.end()) present.push_back(it.key());
    std::vector<std::string> keys;
    if (!columns.empty()) {
        for (const auto& c : columns)
            if (std::find(present.begin(), present.end(), c) != present.end()) keys.push_back(c);
    } else {
        for (const char* id : {"name", "step", "key"})
            if (std::find(present.begin(), present.end(), id) != present.end()) keys.push_back(id);
        for (const auto& k : present)
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    QStringList headers, tips;
    for (const auto& k : keys) {
        headers << humanizeKey(k);
        tips << QString::fromStdString(k);
    }
    model.setHeaders(headers, tips);
    std::vector<std::vector<RecordCell>> out;
    if (rows.is_array())
        for (const auto& r : rows) {
            if (!r.is_object()) continue;
            std::vector<RecordCell> cells;
            for (const auto& k : keys) cells.push_back(r.contains(k) ? jsonCell(k, r[k]) : RecordCell(QString()));
            out.push_back(std::move(cells));
        }
    model.setRows(std::move(out));
}

void fillFromJsonObject(RecordTableModel& model, const json& object, const std::map<std::string, QString>& scopes) {
    model.setHeaders({QStringLiteral("Key"), QStringLiteral("Value")});
    std::vector<std::vector<RecordCell>> out;
    if (object.is_object())
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it->is_structured()) continue;
            QString label = humanizeKey(it.key());
            if (const auto scope = scopes.find(it.key()); scope != scopes.end()) label += QStringLiteral(" (%1)").arg(scope->second);
            out.push_back({RecordCell(label, {}, QString::fromStdString(it.key())), jsonCell(it.key(), *it)});
        }
    model.setRows(std::move(out));
}

}  // namespace npu::views
