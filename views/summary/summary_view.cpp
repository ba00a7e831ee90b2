#include "views/summary/summary_view.h"

#include "engine/result/cluster_summary_json.h"
#include "profiler/store/profile_db.h"
#include "views/charts/loss_scale_chart.h"
#include "views/common/large_run.h"
#include "views/common/units.h"
#include "views/communication/rank_breakdown_chart.h"
#include "views/summary/json_table.h"
#include "views/summary/run_meta.h"
#include "views/summary/summary_cards.h"
#include "views/tables/communication_advice_panel.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/record_table_model.h"
#include "views/tables/share_bar_delegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace npu::views {

namespace {
constexpr int kRowHeight = 22;

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text), parent);
    label->setContentsMargins(0, 6, 0, 0);
    return label;
}

// A section's "—" line: why it has nothing to show.
QLabel* note(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}
}  // namespace

SummaryView::SummaryView(QWidget* parent) : QWidget(parent) {
    m_meta = new RecordTableModel(this);
    m_meta->setLeftAligned(true);
    m_devices = new RecordTableModel(this);
    m_steps = new RecordTableModel(this);

    // One scrolled page: at 1280x720 the cards, the chart and the operators fill the view
    // and Details follow below.
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* page = new QWidget(m_scroll);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 6, 8, 6);

    m_headline = new QLabel(page);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_headline->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_headline->setFont(f);
    layout->addWidget(m_headline);
    m_cards = new SummaryCards(page);
    layout->addWidget(m_cards);

    // The step breakdown beside the top operators.
    auto* middle = new QHBoxLayout;
    auto* breakdown = new QVBoxLayout;
    m_breakdown = new RankBreakdownChart(page, Qt::Horizontal);
    m_breakdown->setMinimumHeight(240);
    m_breakdownNote = note(page);
    breakdown->addWidget(m_breakdown, 1);
    breakdown->addWidget(m_breakdownNote);
    middle->addLayout(breakdown, 3);
    middle->addWidget(buildTopOperators(), 2);
    layout->addLayout(middle);

    layout->addWidget(sectionTitle(QStringLiteral("Advice"), page));
    m_advice = new CommunicationAdvicePanel(page);
    m_advice->setMinimumHeight(150);
    m_adviceNote = note(page);
    layout->addWidget(m_advice);
    layout->addWidget(m_adviceNote);

    // Details: the key/value tables, collapsible (open by default: they were the page).
    m_detailsToggle = new QToolButton(page);
    m_detailsToggle->setText(QStringLiteral("Details"));
    m_detailsToggle->setCheckable(true);
    m_detailsToggle->setChecked(true);
    m_detailsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_detailsToggle->setArrowType(Qt::DownArrow);
    m_detailsToggle->setAutoRaise(true);
    QFont bold = m_detailsToggle->font();
    bold.setBold(true);
    m_detailsToggle->setFont(bold);
    layout->addWidget(m_detailsToggle);
    m_details = new QWidget(page);
    auto* details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    connect(m_detailsToggle, &QToolButton::toggled, this, [this](bool open) {
        m_details->setVisible(open);
        m_detailsToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    QLabel* metaTitle = nullptr;
    QTableView* meta = addTable(details, QStringLiteral("Run"), m_meta, &metaTitle);
    meta->horizontalHeader()->resizeSection(0, 220);
    addTable(details, QStringLiteral("Devices"), m_devices, &m_deviceTitle);
    addTable(details, QStringLiteral("Step breakdown"), m_steps, &m_stepTitle);
    m_deviceTitle->setToolTip(QStringLiteral("Holistic Trace Analysis definitions: kernels = every device op (compute, "
                                             "communication, memory copies/sets: counted apart beside it); kernel time = first kernel start to last "
                                             "kernel end; idle = kernel time minus the union of device activity; overlap = "
                                             "time communication and computation run at once over communication time"));
    m_stepTitle->setToolTip(QStringLiteral("Columns of Ascend's cluster_step_trace_time.csv"));
    m_lossScale = new LossScaleChart(m_details);
    m_lossScale->setMinimumHeight(220);
    details->addWidget(m_lossScale);
    layout->addWidget(m_details);
    layout->addStretch(1);

    m_scroll->setWidget(page);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_scroll);
    setDatabase(nullptr);
}

QWidget* SummaryView::buildTopOperators() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(sectionTitle(QStringLiteral("Top operators by total time"), box));
    m_topOps = new OpStatsModel(this);
    m_topOpsTable = new QTableView(box);
    m_topOpsTable->setModel(m_topOps);
    m_topOpsTable->verticalHeader()->setVisible(false);
    m_topOpsTable->verticalHeader()->setDefaultSectionSize(kRowHeight);
    m_topOpsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_topOpsTable->setAlternatingRowColors(true);
    m_topOpsTable->setTextElideMode(Qt::ElideMiddle);
    m_topOpsTable->setItemDelegateForColumn(OpStatsModel::Share, new ShareBarDelegate(OpStatsModel::FractionRole, this));
    // The name, count, total and share: at 1280 px the name keeps most of the width.
    for (int c : {int(OpStatsModel::DType), int(OpStatsModel::Min), int(OpStatsModel::Max), int(OpStatsModel::Category), int(OpStatsModel::Mean)})
        m_topOpsTable->setColumnHidden(c, true);
    m_topOpsTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_topOpsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_topOpsTable->horizontalHeader()->setSectionResizeMode(OpStatsModel::Key, QHeaderView::Stretch);
    m_topOpsTable->setToolTip(QStringLiteral("The Operators tab's statistics (all device kernels), its ten rows of most total time; "
                                             "shares are of all kernels' summed time"));
    m_topOpsTable->setMinimumHeight(m_topOpsTable->horizontalHeader()->sizeHint().height() + kTopOperators * kRowHeight + 4);
    m_topOpsNote = note(box);
    layout->addWidget(m_topOpsTable, 1);
    layout->addWidget(m_topOpsNote);
    return box;
}

QTableView* SummaryView::addTable(QVBoxLayout* layout, const QString& title, RecordTableModel* model, QLabel** titleLabel) {
    // Fit the columns to what was just loaded (these tables are small).
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title), m_details);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(RecordTableModel::SortRole);
    auto* table = new QTableView(m_details);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(kRowHeight);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setDefaultSectionSize(120);
    // Inside the page's scroll area a table is as high as its rows, up to a screenful
    // (the Run table of a simulation has 60 rows: it scrolls itself past 14).
    const int rowsShown = model == m_meta ? 14 : 10;
    connect(model, &QAbstractItemModel::modelReset, table, [table, rowsShown] {
        table->resizeColumnsToContents();
        for (int c = 0; c < table->model()->columnCount(); ++c)
            table->setColumnWidth(c, std::clamp(table->columnWidth(c) + 12, 70, 420));
        const int rows = std::clamp(table->model()->rowCount(), 3, rowsShown);
        table->setFixedHeight(table->horizontalHeader()->sizeHint().height() + rows * kRowHeight + table->horizontalScrollBar()->sizeHint().height() + 4);
    });
    layout->addWidget(label);
    layout->addWidget(table);
    m_tables.push_back(table);
    *titleLabel = label;
    return table;
}

QString SummaryView::headlineText() const { return m_headlineHtml; }

void SummaryView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_db = std::move(db);
    ++m_generation;
    // Another run starts at its top, not where the previous one was scrolled to (a model
    // reset keeps the scroll bars' values).
    m_scroll->verticalScrollBar()->setValue(0);
    m_scroll->horizontalScrollBar()->setValue(0);
    for (QTableView* t : m_tables) {
        t->scrollToTop();
        t->horizontalScrollBar()->setValue(0);
    }
    m_devices->setHeaders({});
    m_steps->setHeaders({});
    m_lossScale->setDatabase(m_db);
    m_inputs = {};
    if (!m_db) {
        m_meta->setHeaders({});
        m_headlineHtml = QStringLiteral("No run open.");
        m_headline->setText(m_headlineHtml);
        m_cards->setCards({});
        m_breakdown->setOverview({});
        m_breakdownNote->clear();
        m_topOps->setStatistics({}, profiler::OpGrouping::byName);
        m_topOpsNote->clear();
        m_advice->setAdvice({}, 0);
        m_advice->hide();
        m_adviceNote->clear();
        return;
    }
    const RunMeta meta = readRunMeta(*m_db);
    fillFromJsonObject(*m_meta, meta.rows, meta.cluster ? clusterScopes() : std::map<std::string, QString>{});
    const auto range = m_db->timeRange();
    QString header = QStringLiteral("<b>%1</b> · %2 · %3 slices on %4 device(s) · %5 step(s) · span %6")
                         .arg(QString::fromStdString(m_db->path().filename().string()).toHtmlEscaped(),
                              QString::fromStdString(m_db->meta("source", "unknown source")).toHtmlEscaped())
                         .arg(m_db->sliceCount())
                         .arg(m_db->devices().size())
                         .arg(m_db->steps().size())
                         .arg(formatDuration(double(range.second - range.first))) +
                     clusterShape(meta.clusterReport);
    if (const QString phases = phaseFigures(meta.summary); !phases.isEmpty()) header += QStringLiteral("<br>") + phases;
    header += lossScaleFigures(meta.lossScale);
    m_headline->setText(header);
    // The text form keeps the cards' figures too (tests and the accessible description).
    m_headlineHtml = header + keyFigures(meta.summary, meta.cluster);
    m_headline->setAccessibleDescription(m_headlineHtml);

    m_inputs.summary = meta.summary;
    m_inputs.cluster = meta.cluster;
    for (const auto& s : m_db->steps()) m_inputs.stepDurations.push_back(s.end_ns - s.start_ns);
    refreshCards();

    // Advice the run already has: a cluster run's communication playbook (Diagnostics).
    const auto advice = engine::readCommunicationAdvice(nlohmann::json::parse(m_db->meta("cluster_report"), nullptr, false));
    const double stepMs = meta.summary.is_object() ? meta.summary.value("step_time_ms", 0.0) : 0.0;
    m_advice->setAdvice(advice, stepMs);
    m_advice->setVisible(m_advice->hasAdvice());
    m_adviceNote->setVisible(!m_advice->hasAdvice());
    m_adviceNote->setText(meta.cluster ? QStringLiteral("— No advice: exposed communication stays under the playbook's threshold (30 % of computing).")
                                       : QStringLiteral("— No advice: the communication playbook advises simulated cluster runs; "
                                                        "an out-of-memory run's advice is on the Diagnostics tab."));

    // Steps as recorded, until the profiler's breakdown replaces them (setReport).
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : m_db->steps())
        steps.push_back({{"step", s.id}, {"start_ns", s.start_ns - range.first}, {"duration_ns", s.end_ns - s.start_ns}});
    fillFromJsonRows(*m_steps, steps);
    computeAnalyses();
}

void SummaryView::computeAnalyses() {
    // The Operators tab's query with its defaults: all device kernels, simulated runs by
    // op type (their op names are unique per layer).
    profiler::OpStatOptions options;
    options.grouping = m_db->meta("source") == "simulated" ? profiler::OpGrouping::byType : profiler::OpGrouping::byName;
    if (!analysesInBackground(*m_db)) {
        showOverview(profiler::communicationOverview(*m_db));
        showTopOperators(profiler::computeOpStatistics(*m_db, options));
        return;
    }
    // Past kBackgroundAnalysisSlices both read too many kernels for the GUI thread: in
    // workers, on connections of their own.
    showOverview(std::nullopt);
    m_topOps->setStatistics({}, options.grouping);
    m_topOpsNote->setText(QStringLiteral("Computing the operators of %L1 slices…").arg(m_db->sliceCount()));
    const quint64 generation = m_generation;
    whenFinished(this, runOnOwnConnection(m_db->path(), [](const profiler::ProfileDb& db) { return profiler::communicationOverview(db); }),
                 [this, generation](profiler::CommunicationOverview overview) {
                     if (generation == m_generation) showOverview(std::move(overview));
                 });
    whenFinished(this,
                 runOnOwnConnection(m_db->path(), [options](const profiler::ProfileDb& db) { return profiler::computeOpStatistics(db, options); }),
                 [this, generation](profiler::OpStatistics statistics) {
                     if (generation == m_generation) showTopOperators(std::move(statistics));
                 });
}

void SummaryView::showOverview(std::optional<profiler::CommunicationOverview> overview) {
    m_inputs.overview = std::move(overview);
    const bool ranks = m_inputs.overview && !m_inputs.overview->ranks.empty();
    m_breakdown->setOverview(ranks ? *m_inputs.overview : profiler::CommunicationOverview{});
    m_breakdown->setVisible(ranks);
    m_breakdownNote->setVisible(!ranks);
    m_breakdownNote->setText(!m_inputs.overview ? QStringLiteral("Computing the step breakdown per rank…")
                                                : QStringLiteral("— No step breakdown: the run has no device kernels to split into computing, "
                                                                 "communication and free time."));
    // Bars as thick as the chart's: a rank gets 28 px, so 64 ranks still fit a screen.
    if (ranks) m_breakdown->setMinimumHeight(std::clamp(int(m_inputs.overview->ranks.size()) * 28 + 110, 240, 1900));
    refreshCards();
}

void SummaryView::showTopOperators(profiler::OpStatistics stats) {
    const auto grouping = m_db && m_db->meta("source") == "simulated" ? profiler::OpGrouping::byType : profiler::OpGrouping::byName;
    const std::size_t all = stats.rows.size();
    if (stats.rows.size() > std::size_t(kTopOperators)) stats.rows.resize(kTopOperators);  // sorted by total, descending
    m_topOps->setStatistics(std::move(stats), grouping);
    m_topOpsNote->setText(all == 0 ? QStringLiteral("— No operators: the run has no device kernels.")
                                   : QStringLiteral("%1 of %2 rows · all of them on the Operators tab").arg(m_topOps->rowCount()).arg(all));
}

void SummaryView::refreshCards() { m_cards->setCards(headlineCards(m_inputs)); }

void SummaryView::setReport(const nlohmann::json& report) {
    m_inputs.report = report;
    refreshCards();
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
