#include "views/communication/communication_tab.h"

#include "profiler/store/profile_db.h"
#include "views/communication/collectives_model.h"
#include "views/communication/comm_matrix_chart.h"
#include "views/communication/rank_breakdown_chart.h"
#include "profiler/analysis/communication_summary.h"
#include "views/common/large_run.h"
#include "views/common/units.h"
#include "views/tables/record_table_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace npu::views {

CommunicationTab::CommunicationTab(QWidget* parent) : QWidget(parent) {
    m_step = new QComboBox(this);
    m_step->setToolTip(QStringLiteral("The step whose per-rank times the bars show"));
    connect(m_step, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) show(m_step->itemData(i).toString().toStdString());
    });
    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_ranks = new RankBreakdownChart(this);
    m_matrix = new CommMatrixChart(this);
    m_collectives = new CollectivesModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_collectives);
    proxy->setSortRole(CollectivesModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    // Qt's header starts descending; open in the rows' own order (rank ascending).
    m_table->sortByColumn(CollectivesModel::Rank, Qt::AscendingOrder);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAlternatingRowColors(true);
    // Columns fit their contents (resizeColumnsToContents below); a stretched last column
    // shrank below its header ("Bandwidth by link") once the others filled the width.
    m_table->horizontalHeader()->setStretchLastSection(false);

    m_groups = new RecordTableModel(this);
    // Ranks last: the stretched column, as a 16-rank set is long.
    m_groups->setHeaders({QStringLiteral("Group type"), QStringLiteral("Size"), QStringLiteral("Ranks")});
    auto* groupsProxy = new QSortFilterProxyModel(this);
    groupsProxy->setSourceModel(m_groups);
    groupsProxy->setSortRole(RecordTableModel::SortRole);
    m_groupsTable = new QTableView(this);
    m_groupsTable->setModel(groupsProxy);
    m_groupsTable->setSortingEnabled(true);
    m_groupsTable->sortByColumn(-1, Qt::AscendingOrder);
    m_groupsTable->verticalHeader()->setVisible(false);
    m_groupsTable->horizontalHeader()->setStretchLastSection(true);
    m_groupsTable->setToolTip(QStringLiteral("Communication groups of the cluster analysis (CommunicationGroup / "
                                             "communication_group.json)"));

    // Their own minimums (legend rows, axis margins) held the window above 720 px; the
    // splitter gives them what the tab has.
    m_ranks->setMinimumHeight(140);
    m_matrix->setMinimumHeight(140);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(m_ranks);
    charts->addWidget(m_matrix);
    charts->setSizes({55, 45});  // proportions: the matrix needs room for its cell labels
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_table);
    tables->addWidget(m_groupsTable);
    tables->setSizes({70, 30});
    split->addWidget(charts);
    split->addWidget(tables);
    split->setSizes({60, 40});

    m_content = new QWidget(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(QStringLiteral("Step:"), m_content));
    top->addWidget(m_step);
    top->addWidget(m_info, 1);
    auto* contentLayout = new QVBoxLayout(m_content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(top);
    contentLayout->addWidget(split, 1);

    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_content);
    m_stack->addWidget(m_empty);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stack);
    setDatabase(nullptr);
}

void CommunicationTab::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_db = std::move(db);
    m_stepsListed = false;
    show({});
}

void CommunicationTab::listSteps() {
    const QSignalBlocker block(m_step);
    m_step->clear();
    m_step->addItem(QStringLiteral("All steps"), QString());
    for (const auto& s : m_overview.steps)
        if (!s.empty()) m_step->addItem(QString::fromStdString(s), QString::fromStdString(s));
    m_step->setEnabled(m_step->count() > 1);
    m_stepsListed = true;
}

void CommunicationTab::setStep(const QString& step) {
    const int i = m_step->findData(step);
    if (i < 0) return;
    if (i != m_step->currentIndex()) m_step->setCurrentIndex(i);  // shows it through currentIndexChanged
    else show(step.toStdString());
}

void CommunicationTab::show(const std::string& step) {
    const quint64 generation = ++m_generation;
    if (!m_db || !analysesInBackground(*m_db)) {
        apply(m_db ? profiler::communicationOverview(*m_db, step) : profiler::CommunicationOverview{});
        return;
    }
    // Past kBackgroundAnalysisSlices: its step breakdown reads every kernel (seconds at 10M slices). Off the
    // GUI thread, on a connection of its own, so the window opens and stays live.
    m_empty->setText(QStringLiteral("Computing the per-rank communication of %L1 slices…").arg(m_db->sliceCount()));
    m_stack->setCurrentWidget(m_empty);
    whenFinished(this,
                 runOnOwnConnection(m_db->path(), [step](const profiler::ProfileDb& db) { return profiler::communicationOverview(db, step); }),
                 [this, generation](profiler::CommunicationOverview overview) {
                     if (generation == m_generation) apply(std::move(overview));  // else another run or step was asked for
                 });
}

void CommunicationTab::apply(profiler::CommunicationOverview overview) {
    m_overview = std::move(overview);
    if (!m_stepsListed) listSteps();
    m_ranks->setOverview(m_overview);
    m_matrix->setOverview(m_overview);
    m_collectives->setRows(m_overview.collectives);
    // Simulated runs have no steps: no empty column.
    m_table->setColumnHidden(CollectivesModel::Step, std::all_of(m_overview.collectives.begin(), m_overview.collectives.end(),
                                                                  [](const auto& r) { return r.step.empty(); }));
    m_table->resizeColumnsToContents();
    std::vector<std::vector<RecordCell>> groups;
    if (m_db)
        for (const auto& g : profiler::communicationGroups(*m_db))
            groups.push_back({RecordCell(QString::fromStdString(g.type)), RecordCell(qlonglong(g.size)),
                              RecordCell(QString::fromStdString(g.rankSet))});
    m_groupsTable->setVisible(!groups.empty());
    m_groups->setRows(std::move(groups));
    m_groupsTable->resizeColumnsToContents();
    // Kernel names run to 80 characters: cap the column, the tooltip has the whole name.
    if (m_table->columnWidth(CollectivesModel::Collective) > 320) m_table->setColumnWidth(CollectivesModel::Collective, 320);
    if (!m_db) {
        m_empty->setText(QStringLiteral("No run open."));
    } else if (!m_overview.hasCommunication()) {
        m_empty->setText(QStringLiteral("No communication in this run: %1 device(s), no collectives or links.\n"
                                        "Simulate a cluster project (project.json \"cluster\" and \"parallel\") or import "
                                        "a multi-rank capture to see per-rank time, the rank × rank matrix and collectives.")
                             .arg(m_overview.ranks.size()));
    }
    m_stack->setCurrentWidget(m_db && m_overview.hasCommunication() ? m_content : static_cast<QWidget*>(m_empty));
    m_info->setText(headline());
    QStringList notes;
    for (const auto& n : m_overview.notes) notes << QString::fromStdString(n);
    m_info->setToolTip(QStringLiteral("Slowest rank: the one the others wait on, the largest own work = computing + "
                                      "communication (not overlapped) - its collectives' wait for other ranks. Slowest "
                                      "link: lowest bandwidth between two ranks.\n") +
                       notes.join(QLatin1Char('\n')));
}

QString CommunicationTab::headline() const {
    const auto& o = m_overview;
    QString text = QStringLiteral("%1 run · %2 rank(s) · %3 collective row(s) · %4 link(s)")
                       .arg(QString::fromStdString(m_db && !m_db->meta("source").empty() ? m_db->meta("source") : o.source))
                       .arg(o.ranks.size())
                       .arg(o.collectives.size())
                       .arg(o.links.size());
    if (m_groups->rowCount() > 0) text += QStringLiteral(" · %1 communication group(s)").arg(m_groups->rowCount());
    if (o.slowestRank >= 0) {
        const auto& r = o.ranks[std::size_t(o.slowestRank)];
        text += QStringLiteral(" · slowest rank: %1 (own work %2)").arg(QString::fromStdString(r.label), formatDuration(r.ownWorkMs() * 1e6));
        if (o.slowestRanks.size() > 1) text += QStringLiteral(" +%1 as busy").arg(o.slowestRanks.size() - 1);
    } else if (o.ranks.size() > 1) {
        text += QStringLiteral(" · ranks equally busy (no slowest rank)");
    }
    if (o.slowestLink >= 0) {
        const auto& l = o.links[std::size_t(o.slowestLink)];
        text += QStringLiteral(" · slowest link: %1 → %2 %3 %4 GB/s")
                    .arg(l.src)
                    .arg(l.dst)
                    .arg(QString::fromStdString(l.transport))
                    .arg(l.bandwidth_gbps, 0, 'f', 2);
        if (o.slowestLinks.size() > 1) text += QStringLiteral(" +%1 as slow").arg(o.slowestLinks.size() - 1);
    }
    return text;
}

}  // namespace npu::views
