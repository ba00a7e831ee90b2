#include "views/tables/diagnostics_view.h"

#include "profiler/importers/common/diagnostic_example.h"
#include "profiler/importers/common/diagnostic_kinds.h"
#include "profiler/store/memory_summary_json.h"
#include "profiler/store/profile_db.h"
#include "engine/result/cluster_summary_json.h"
#include "views/tables/communication_advice_panel.h"
#include "views/tables/oom_panel.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

DiagnosticsView::DiagnosticsView(QWidget* parent) : QWidget(parent) {
    m_model = new RecordTableModel(this);
    m_model->setHeaders({QStringLiteral("Severity"), QStringLiteral("Kind"), QStringLiteral("Count"), QStringLiteral("Example")});
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(RecordTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::DescendingOrder);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = {80, 240, 80};
    for (int c = 0; c < 3; ++c) m_table->horizontalHeader()->resizeSection(c, widths[c]);
    m_table->setToolTip(QStringLiteral("Double-click a row to show its events on the timeline"));
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { activate(index); });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (!index.isValid()) return;
        QMenu menu(this);
        menu.addAction(QStringLiteral("Show in Timeline"), this, [this, index] { activate(index); });
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    m_info = new QLabel(this);
    m_oom = new OomPanel(this);
    m_oom->hide();
    connect(m_oom, &OomPanel::showInTimeline, this, &DiagnosticsView::eventsRequested);
    m_commAdvice = new CommunicationAdvicePanel(this);
    m_commAdvice->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_oom, 3);
    layout->addWidget(m_commAdvice, 2);
    layout->addWidget(m_info);
    layout->addWidget(m_table, 1);
}

bool DiagnosticsView::hasOom() const { return m_oom->hasOom(); }
bool DiagnosticsView::hasCommunicationAdvice() const { return m_commAdvice->hasAdvice(); }

void DiagnosticsView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    std::vector<std::vector<RecordCell>> rows;
    qint64 total = 0;
    m_examples.clear();
    if (db) {
        for (const auto& d : db->diagnostics()) {
            static const QString names[] = {QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error")};
            const int sev = std::clamp(int(d.severity), 0, 2);
            const QString example = QString::fromStdString(d.example);
            const auto* info = profiler::findDiagnostic(d.kind);  // the list's meaning as the kind's tooltip
            const QString kind = QString::fromStdString(d.kind);
            rows.push_back({RecordCell(names[sev], sev),
                            RecordCell(kind, {}, info ? QString::fromUtf8(info->description.data(), qsizetype(info->description.size())) : kind),
                            RecordCell(QString::number(d.count), qlonglong(d.count)), RecordCell(example, {}, example)});
            total += d.count;
            m_examples.push_back(d.example);
        }
    }
    m_info->setText(!db ? QStringLiteral("No run open.")
                    : rows.empty() ? QStringLiteral("No import problems recorded for this run.")
                                   : QStringLiteral("%1 problem(s) of %2 kind(s); odd events were counted and skipped, "
                                                    "the rest of the trace was imported.")
                                         .arg(total)
                                         .arg(rows.size()));
    const bool noProblems = rows.empty();
    m_model->setRows(std::move(rows));
    std::optional<engine::MemorySummary> memory;
    double capacity = 0;
    if (db) {
        memory = profiler::storedMemorySummary(*db);
        capacity = QString::fromStdString(db->meta("capacity_bytes")).toDouble();
    }
    m_oom->setSummary(memory, capacity, db ? db->timeRange().first : 0);
    m_oom->setVisible(m_oom->hasOom());
    // A cluster run's communication advice, as `--report` wrote it (engine/cluster).
    std::vector<engine::CommunicationAdvice> advice;
    double stepMs = 0;
    if (db) {
        advice = engine::readCommunicationAdvice(nlohmann::json::parse(db->meta("cluster_report"), nullptr, false));
        stepMs = QString::fromStdString(db->meta("step_time_ms")).toDouble();
    }
    m_commAdvice->setAdvice(advice, stepMs);
    m_commAdvice->setVisible(m_commAdvice->hasAdvice());
    // A simulated run has no import to report on: its tab is the out-of-memory view
    // and/or the communication advice.
    const bool simulated = db && db->meta("source") == "simulated";
    const bool showImport = !(simulated && noProblems && (m_oom->hasOom() || m_commAdvice->hasAdvice()));
    m_info->setVisible(showImport);
    m_table->setVisible(showImport);
}

bool DiagnosticsView::activate(const QModelIndex& index) {
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_table->model());
    const int row = proxy->mapToSource(index).row();
    if (row < 0 || row >= int(m_examples.size())) return false;
    const auto event = profiler::diagnosticEventOf(m_examples[size_t(row)]);
    if (event.name.empty() && !event.ts) return false;
    emit eventsRequested(QString::fromStdString(event.name), event.ts ? qint64(*event.ts) : -1);
    return true;
}

}  // namespace npu::views
