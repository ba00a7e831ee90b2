#pragma once
// What the Summary reads from a run's META_DATA: its rows (text values become numbers so
// *_bytes, *_ms get units; the simulator's summary, the cluster's shape and the loss
// scale become rows of their own instead of JSON blobs) and the headline's phrases.

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <string>

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

struct RunMeta {
    nlohmann::json rows = nlohmann::json::object();  // the Details' Run table
    nlohmann::json summary;                           // the simulator's summary (object) or null
    nlohmann::json lossScale;
    nlohmann::json clusterReport;
    bool cluster = false;  // a cluster run: its graph is part of one rank's step (graph_scope)
};

RunMeta readRunMeta(const profiler::ProfileDb& db);

// Each row's scope in a cluster run ("all ranks", "busiest rank").
const std::map<std::string, QString>& clusterScopes();
// "step <b>2.38 s</b> · <b>26.9</b> samples/s · ..." (HTML, after a <br>); empty without a summary.
QString keyFigures(const nlohmann::json& summary, bool cluster);
// PPO's step phases, "generation <b>..</b> · scoring ..." (HTML); empty otherwise.
QString phaseFigures(const nlohmann::json& summary);
// "<br>cluster: <b>8 devices</b> (1 node(s) × 8): TP 4 × DP 2, ..." ; empty for one device.
QString clusterShape(const nlohmann::json& clusterReport);
QString lossScaleFigures(const nlohmann::json& lossScale);

}  // namespace npu::views
