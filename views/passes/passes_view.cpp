#include "views/passes/passes_view.h"

#include "profiler/store/fusion_store.h"
#include "profiler/store/profile_db.h"
#include "views/passes/passes_model.h"
#include "views/tables/descending_first_sort.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

PassesView::PassesView(QWidget* parent) : QWidget(parent) {
    m_model = new PassesModel(this);
    m_proxy = new PassesSortProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PassesModel::SortRole);
    m_headline = new QLabel(this);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicatorShown(true);
    // Run order until a header is clicked.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    sortNumbersDescendingFirst(m_table, PassesModel::SortRole);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    // Time, what the pass cost, stands next to the pass and keeps its content's width: as
    // the last, stretched column it was the one cut at the tab's edge (1280 px with the
    // Project dock open: the ten columns need more than the ~920 px left).
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->moveSection(m_table->horizontalHeader()->visualIndex(PassesModel::Time), PassesModel::Level + 1);
    m_table->horizontalHeader()->setSectionResizeMode(PassesModel::Time, QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_headline);
    layout->addWidget(m_table, 1);

    connect(m_model, &QAbstractItemModel::modelReset, m_table, [this] {
        m_table->resizeColumnsToContents();
        for (int c = 0; c < m_model->columnCount(); ++c) m_table->setColumnWidth(c, std::clamp(m_table->columnWidth(c) + 12, 60, 320));
    });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& i) {
        if (const QString p = passAt(i); !p.isEmpty()) emit passSelected(p);
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& i) {
        if (const QString p = passAt(i); !p.isEmpty()) emit passActivated(p);
    });
}

QString PassesView::passAt(const QModelIndex& proxyIndex) const {
    return m_model->passName(m_proxy->mapToSource(proxyIndex).row());
}

void PassesView::setDatabase(const std::shared_ptr<const profiler::ProfileDb>& db) {
    if (!db || db->meta("source") != "simulated") {
        setPasses({}, -1, 0);
        return;
    }
    bool ok = false;
    const int level = QString::fromStdString(db->meta("graph_level")).toInt(&ok);
    const int kernels = QString::fromStdString(db->meta("kernels_per_step")).toInt();
    setPasses(profiler::readPassStats(*db), ok ? level : -1, kernels, QString::fromStdString(db->meta("graph_scope")));
}

void PassesView::setPasses(std::vector<engine::PassRecord> passes, int graphLevel, int kernelsPerStep, const QString& graphScope) {
    QString text;
    if (passes.empty()) {
        text = tr("No graph passes recorded: the Passes panel shows a simulated run's passes "
                  "(runs saved before schema 2 and imported profiles have none).");
    } else {
        text = tr("<b>%1 passes</b> ran").arg(passes.size());
        if (graphLevel >= 0) text += tr(" at <b>graph_level %1</b>").arg(graphLevel);
        // A cluster run's graph is part of one rank's step: the figures say of what.
        if (!graphScope.isEmpty()) text += tr(" on the graph simulated for %1").arg(graphScope.toHtmlEscaped());
        if (kernelsPerStep > 0)
            text += graphScope.isEmpty() ? tr("; <b>%1 kernels</b> per step").arg(kernelsPerStep)
                                         : tr("; <b>%1 kernels</b> in that graph (the Summary's Devices table counts each device's whole step)").arg(kernelsPerStep);
        text += tr(". Click a pass to frame the nodes it produced in the Graph tab.");
    }
    m_headline->setText(text);
    m_model->setPasses(std::move(passes));
}

QString PassesView::headline() const { return m_headline->text(); }

}  // namespace npu::views
