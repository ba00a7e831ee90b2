#include "views/summary/summary_view.h"

#include <charconv>

#include "profiler/store/profile_db.h"
#include "views/charts/loss_scale_chart.h"
#include "views/common/units.h"
#include "views/summary/json_table.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>

namespace npu::views {

SummaryView::SummaryView(QWidget* parent) : QWidget(parent) {
    m_meta = new RecordTableModel(this);
    m_meta->setLeftAligned(true);
    m_devices = new RecordTableModel(this);
    m_steps = new RecordTableModel(this);
    m_headline = new QLabel(this);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_headline->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_headline->setFont(f);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_headline);
    QLabel* metaTitle = nullptr;
    QTableView* meta = addTable(layout, QStringLiteral("Run"), m_meta, &metaTitle);
    meta->horizontalHeader()->resizeSection(0, 220);
    addTable(layout, QStringLiteral("Devices"), m_devices, &m_deviceTitle);
    addTable(layout, QStringLiteral("Step breakdown"), m_steps, &m_stepTitle);
    m_deviceTitle->setToolTip(QStringLiteral("Holistic Trace Analysis definitions: kernels = every device op (compute, "
                                             "communication, memory copies/sets: counted apart beside it); kernel time = first kernel start to last "
                                             "kernel end; idle = kernel time minus the union of device activity; overlap = "
                                             "time communication and computation run at once over communication time"));
    m_stepTitle->setToolTip(QStringLiteral("Columns of Ascend's cluster_step_trace_time.csv"));
    m_lossScale = new LossScaleChart(this);
    layout->addWidget(m_lossScale, 2);
}

QTableView* SummaryView::addTable(QVBoxLayout* layout, const QString& title, RecordTableModel* model, QLabel** titleLabel) {
    // Fit the columns to what was just loaded (these tables are small).
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title), this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(RecordTableModel::SortRole);
    auto* table = new QTableView(this);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(22);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setDefaultSectionSize(120);
    connect(model, &QAbstractItemModel::modelReset, table, [table] {
        table->resizeColumnsToContents();
        for (int c = 0; c < table->model()->columnCount(); ++c)
            table->setColumnWidth(c, std::clamp(table->columnWidth(c) + 12, 70, 420));
    });
    // Header, three rows and the horizontal scroll bar at the least: at 1280x720 the
    // Devices table of an 8-rank run was left one row high.
    table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() + 3 * 22 + table->horizontalScrollBar()->sizeHint().height() + 4);
    layout->addWidget(label);
    layout->addWidget(table, model == m_devices ? 1 : 2);
    m_tables.push_back(table);
    *titleLabel = label;
    return table;
}

namespace {
// A cluster run's summary mixes figures of the whole cluster, of one rank and of the
// busiest rank (engine/cluster/step_result): each row says which (issue 24 Major 2).
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
    // PPO's step phases (engine/training/ppo_graph): device time of each.
    if (const auto& ph = s.value("time_by_phase_ms", nlohmann::json::object()); ph.is_object() && ph.contains("generation")) {
        QStringList phases;
        for (const char* p : {"generation", "scoring", "training"})
            if (ph.contains(p) && ph[p].is_number()) phases << QStringLiteral("%1 <b>%2</b>").arg(QLatin1String(p), formatDuration(ph[p].get<double>() * 1e6));
        parts << phases.join(QStringLiteral(" · "));
    }
    return parts.isEmpty() ? QString() : QStringLiteral("<br>") + parts.join(QStringLiteral(" · "));
}

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

QString lossScaleFigures(const nlohmann::json& l) {
    if (!l.is_object()) return {};
    return QStringLiteral("<br>loss scale: final <b>%1</b> · %2 overflow(s) · %3 skipped step(s)")
        .arg(l.value("final", 0.0), 0, 'g', 8)
        .arg(l.value("overflows", std::int64_t{0}))
        .arg(l.value("skipped_steps", std::int64_t{0}));
}
}  // namespace

QString SummaryView::headlineText() const { return m_headline->text(); }

void SummaryView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    // Another run starts at its top, not where the previous one was scrolled to (a model
    // reset keeps the scroll bars' values).
    for (QTableView* t : m_tables) {
        t->scrollToTop();
        t->horizontalScrollBar()->setValue(0);
    }
    m_devices->setHeaders({});
    m_steps->setHeaders({});
    m_lossScale->setDatabase(db);
    if (!db) {
        m_meta->setHeaders({});
        m_headline->setText(QStringLiteral("No run open."));
        return;
    }
    // META_DATA values are text; numbers become numbers so *_bytes, *_ms ... get units.
    // Integers stay integers (a ns timestamp keeps all its digits, not 1.79086e+18).
    nlohmann::json meta = nlohmann::json::object();
    nlohmann::json summary, lossScale, clusterReport;
    for (const auto& [k, v] : db->allMeta()) {
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
    // A cluster run is the one whose graph is part of one rank's step (graph_scope).
    const bool cluster = meta.contains("graph_scope");
    fillFromJsonObject(*m_meta, meta, cluster ? clusterScopes() : std::map<std::string, QString>{});
    const auto range = db->timeRange();
    m_headline->setText(QStringLiteral("<b>%1</b> · %2 · %3 slices on %4 device(s) · %5 step(s) · span %6")
                            .arg(QString::fromStdString(db->path().filename().string()).toHtmlEscaped(),
                                 QString::fromStdString(db->meta("source", "unknown source")).toHtmlEscaped())
                            .arg(db->sliceCount())
                            .arg(db->devices().size())
                            .arg(db->steps().size())
                            .arg(formatDuration(double(range.second - range.first))) +
                        clusterShape(clusterReport) + keyFigures(summary, cluster) + lossScaleFigures(lossScale));
    // Steps as recorded, until the profiler's breakdown replaces them (setReport).
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : db->steps())
        steps.push_back({{"step", s.id}, {"start_ns", s.start_ns - range.first}, {"duration_ns", s.end_ns - s.start_ns}});
    fillFromJsonRows(*m_steps, steps);
}

void SummaryView::setReport(const nlohmann::json& report) {
    if (report.contains("devices"))
        fillFromJsonRows(*m_devices, report["devices"],
                         {"name", "kind", "kernels", "compute_kernels", "communication_kernels", "memory_ops", "kernel_time_us", "compute_us", "non_compute_us", "idle_us",
                          "communication_us", "memory_us", "comm_comp_overlap_pct", "peak_allocated_bytes",
                          "peak_reserved_bytes"});
    if (report.contains("step_breakdown") && report["step_breakdown"].is_array() && !report["step_breakdown"].empty())
        // Ascend cluster_step_trace_time.csv column order.
        fillFromJsonRows(*m_steps, report["step_breakdown"],
                         {"step", "device_name", "type", "computing_us", "communication_not_overlapped_us",
                          "overlapped_us", "communication_us", "free_us", "stage_us", "bubble_us",
                          "communication_not_overlapped_exclude_receive_us", "preparing_us"});
}

}  // namespace npu::views
