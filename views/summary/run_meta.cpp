#include "views/summary/run_meta.h"

#include "profiler/store/profile_db.h"
#include "views/common/units.h"

#include <QStringList>

#include <charconv>
#include <cstdlib>

namespace npu::views {

namespace {
// The cluster report's shape (engine/cluster: cluster, bubble_fraction, notes) as rows of
// the Run table, instead of one row holding the whole JSON document.
void addClusterRows(nlohmann::json& meta, const nlohmann::json& report) {
    if (const auto shape = report.find("cluster"); shape != report.end() && shape->is_object()) {
        for (auto it = shape->begin(); it != shape->end(); ++it)
            if (!it->is_structured()) meta["cluster_" + it.key()] = *it;
        if (const auto notes = shape->find("notes"); notes != shape->end() && notes->is_array())
            for (std::size_t i = 0; i < notes->size(); ++i)
                if ((*notes)[i].is_string()) meta["cluster_note_" + std::to_string(i + 1)] = (*notes)[i];
    }
    if (const auto bubble = report.find("bubble_fraction"); bubble != report.end() && bubble->is_number())
        meta["pipeline_bubble_pct"] = 100.0 * bubble->get<double>();
    meta["cluster_details"] = "collectives, links and per-rank time: the Communication tab";
}

// A cluster run's summary mixes figures of the whole cluster, of one rank and of the
// busiest rank (engine/cluster/step_result): each row says which (issue 24 Major 2).
}  // namespace

const std::map<std::string, QString>& clusterScopes() {
    static const std::map<std::string, QString> scopes = {
        {"flops_per_step", QStringLiteral("all ranks")},
        {"samples_per_s", QStringLiteral("all ranks")},
        {"tokens_per_s", QStringLiteral("all ranks")},
        {"batch", QStringLiteral("global, all ranks")},
        {"params", QStringLiteral("whole model")},
        {"trainable_params", QStringLiteral("rank 0's shard")},
        {"frozen_params", QStringLiteral("rank 0's shard")},
        {"peak_bytes", QStringLiteral("busiest rank")},
        {"capacity_bytes", QStringLiteral("per device")},
        {"device_busy_ms", QStringLiteral("rank 0, whole step")},
        {"host_bound_idle_ms", QStringLiteral("one micro-batch pass")},
        {"data_wait_ms", QStringLiteral("one micro-batch pass")},
        {"kernels_per_step", QStringLiteral("of the graph scope")},
    };
    return scopes;
}

// The figures a training engineer reads first, as figures rather than a JSON row.
QString keyFigures(const nlohmann::json& s, bool cluster) {
    if (!s.is_object()) return {};
    auto num = [&](const char* k) { return s.contains(k) && s[k].is_number() ? s[k].get<double>() : -1.0; };
    QStringList parts;
    if (num("step_time_ms") > 0) parts << QStringLiteral("step <b>%1</b>").arg(formatDuration(num("step_time_ms") * 1e6));
    if (num("samples_per_s") > 0) parts << QStringLiteral("<b>%1</b> samples/s").arg(num("samples_per_s"), 0, 'f', 1);
    if (num("tokens_per_s") > 0) parts << QStringLiteral("<b>%1</b> tokens/s").arg(formatCount(num("tokens_per_s")));
    if (num("mfu") >= 0) parts << QStringLiteral("MFU <b>%1</b>").arg(formatPercent(num("mfu")));
    if (num("peak_bytes") > 0) {
        QString peak = QStringLiteral("peak memory%1 <b>%2</b>").arg(cluster ? QStringLiteral(" of the busiest rank") : QString(), formatBytes(num("peak_bytes")));
        if (num("capacity_bytes") > 0) peak += QStringLiteral(" of %1").arg(formatBytes(num("capacity_bytes")));
        parts << peak;
    }
    return parts.isEmpty() ? QString() : QStringLiteral("<br>") + parts.join(QStringLiteral(" · "));
}

// "cluster: 8 devices (1 node(s) × 8): TP 4 × DP 2, sequence parallel, ZeRO-1, 8 micro-batches (1f1b)".
QString clusterShape(const nlohmann::json& report) {
    const nlohmann::json shape = report.is_object() ? report.value("cluster", nlohmann::json::object()) : nlohmann::json::object();
    if (!shape.is_object() || !shape.contains("devices")) return {};
    auto degree = [&](const char* k) { return shape.contains(k) && shape[k].is_number_integer() ? shape[k].get<std::int64_t>() : 1; };
    QStringList parts;
    for (const auto& [key, name] : {std::pair{"tensor_parallel", "TP"}, {"pipeline_stages", "PP"}, {"data_parallel", "DP"}})
        if (degree(key) > 1) parts << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(degree(key));
    QString text = QStringLiteral("<br>cluster: <b>%1 devices</b> (%2 node(s) × %3)").arg(degree("devices")).arg(degree("nodes")).arg(degree("devices_per_node"));
    if (!parts.isEmpty()) text += QStringLiteral(": ") + parts.join(QStringLiteral(" × "));
    // A damaged report's fields are not believed (a field of the wrong type is skipped).
    if (shape.contains("sequence_parallel") && shape["sequence_parallel"] == true) text += QStringLiteral(", sequence parallel");
    if (degree("zero_stage") > 0) text += QStringLiteral(", ZeRO-%1").arg(degree("zero_stage"));
    if (degree("micro_batches") > 1)
        text += QStringLiteral(", %1 micro-batches (%2)").arg(degree("micro_batches"))
                    .arg(shape.contains("schedule") && shape["schedule"].is_string() ? QString::fromStdString(shape["schedule"].get<std::string>()).toHtmlEscaped() : QStringLiteral("?"));
    return text;
}

QString phaseFigures(const nlohmann::json& s) {
    // PPO's step phases (engine/training/ppo_graph): device time of each.
    if (!s.is_object()) return {};
    const auto& ph = s.value("time_by_phase_ms", nlohmann::json::object());
    if (!ph.is_object() || !ph.contains("generation")) return {};
    QStringList phases;
    for (const char* p : {"generation", "scoring", "training"})
        if (ph.contains(p) && ph[p].is_number()) phases << QStringLiteral("%1 <b>%2</b>").arg(QLatin1String(p), formatDuration(ph[p].get<double>() * 1e6));
    return phases.join(QStringLiteral(" · "));
}

QString lossScaleFigures(const nlohmann::json& l) {
    if (!l.is_object()) return {};
    return QStringLiteral("<br>loss scale: final <b>%1</b> · %2 overflow(s) · %3 skipped step(s)")
        .arg(l.value("final", 0.0), 0, 'g', 8)
        .arg(l.value("overflows", std::int64_t{0}))
        .arg(l.value("skipped_steps", std::int64_t{0}));
}
RunMeta readRunMeta(const profiler::ProfileDb& db) {
    // META_DATA values are text; numbers become numbers so *_bytes, *_ms ... get units.
    // Integers stay integers (a ns timestamp keeps all its digits, not 1.79086e+18).
    RunMeta out;
    nlohmann::json& meta = out.rows;
    nlohmann::json& summary = out.summary;
    nlohmann::json& lossScale = out.lossScale;
    nlohmann::json& clusterReport = out.clusterReport;
    for (const auto& [k, v] : db.allMeta()) {
        // The store's query cache and the timeline summaries' grid: not properties of the run.
        if (k == "max_dur_ns" || k == "density_t0_ns" || k == "density_bucket_ns") continue;
        if (k == "summary") {  // the simulator's summary: its figures get rows of their own
            summary = nlohmann::json::parse(v, nullptr, false);
            if (summary.is_object()) continue;
        }
        if (k == "cluster_report") {  // the cluster's shape as rows; collectives and ranks are the Communication tab's
            clusterReport = nlohmann::json::parse(v, nullptr, false);
            if (clusterReport.is_object()) {
                addClusterRows(meta, clusterReport);
                continue;
            }
        }
        if (k == "loss_scale") {  // fp16 loss scaling (profiler/store/loss_scale_store): one row per figure
            lossScale = nlohmann::json::parse(v, nullptr, false);
            if (lossScale.is_object()) {
                for (auto it = lossScale.begin(); it != lossScale.end(); ++it) meta["loss_scale_" + it.key()] = *it;
                continue;
            }
        }
        std::int64_t i = 0;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
        char* end = nullptr;
        const double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
        if (!v.empty() && ec == std::errc() && ptr == v.data() + v.size()) meta[k] = i;
        else if (!v.empty() && end && *end == '\0') meta[k] = d;
        else meta[k] = v;
    }
    // Models of an ensemble (DPO, PPO): a row per model and kind ("actor_trainable_params").
    if (summary.is_object() && summary.contains("params_by_model") && summary["params_by_model"].is_object())
        for (const auto& [model, split] : summary["params_by_model"].items())
            for (const char* kind : {"trainable_params", "frozen_params"})
                if (split.contains(kind)) meta[model + "_" + kind] = split[kind];
    // Bytes per model on one device (every simulated run; "model_..." for a single model).
    if (summary.is_object() && summary.contains("bytes_by_model") && summary["bytes_by_model"].is_object())
        for (const auto& [model, bytes] : summary["bytes_by_model"].items())
            for (auto it = bytes.begin(); it != bytes.end(); ++it) meta[model + "_" + it.key()] = *it;
    if (summary.is_object())
        for (auto it = summary.begin(); it != summary.end(); ++it) {
            if (it->is_structured() || meta.contains(it.key())) continue;
            if (it.key() == "mfu" && it->is_number()) meta["mfu_pct"] = 100.0 * it->get<double>();
            else meta[it.key()] = *it;
        }
    out.cluster = meta.contains("graph_scope");
    // The summary's object stays an object only if it parsed as one.
    if (!summary.is_object()) summary = nullptr;
    return out;
}

}  // namespace npu::views
