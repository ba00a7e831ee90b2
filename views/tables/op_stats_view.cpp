#include "views/tables/op_stats_view.h"

#include "profiler/store/profile_db.h"
#include "views/common/large_run.h"
#include "views/common/units.h"
#include "views/tables/descending_first_sort.h"
#include "views/tables/distinguishing_elide.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/share_bar_delegate.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

OpStatsView::OpStatsView(QWidget* parent) : QWidget(parent) {
    m_model = new OpStatsModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OpStatsModel::SortRole);
    m_proxy->setFilterKeyColumn(OpStatsModel::Key);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_grouping = new QComboBox(this);
    m_grouping->addItem(QStringLiteral("By name"), int(profiler::OpGrouping::byName));
    m_grouping->addItem(QStringLiteral("By op type"), int(profiler::OpGrouping::byType));
    m_grouping->addItem(QStringLiteral("By category"), int(profiler::OpGrouping::byCategory));
    m_grouping->setToolTip(QStringLiteral("Group the operators by name, by op type or by category"));
    m_device = new QComboBox(this);
    m_device->setToolTip(QStringLiteral("Restrict the statistics to one device"));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(QStringLiteral("Filter by name…"));
    m_filter->setClearButtonEnabled(true);
    m_info = new QLabel(this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Group:"), this));
    bar->addWidget(m_grouping);
    bar->addWidget(m_device);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_info);

    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OpStatsModel::Total, Qt::DescendingOrder);
    sortNumbersDescendingFirst(m_table, OpStatsModel::SortRole);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->setItemDelegateForColumn(OpStatsModel::Share, new ShareBarDelegate(OpStatsModel::FractionRole, this));
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    // Names of one kernel family keep the part that tells them apart when cut.
    m_table->setItemDelegateForColumn(OpStatsModel::Key, new DistinguishingElideDelegate(OpStatsModel::DistinctFromRole, this));
    auto* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    const int widths[] = {360, 110, 80, 70, 95, 95, 95, 95, 160};
    for (int c = 0; c < OpStatsModel::ColumnCount; ++c) header->resizeSection(c, widths[c]);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OpStatsView::measureNames);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateInfo();
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        emit rowActivated(keyAt(index), m_model->grouping());
    });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (!index.isValid()) return;
        QMenu* menu = contextMenuFor(index);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_table->viewport()->mapToGlobal(pos));
    });
}

void OpStatsView::measureNames() {
    m_table->resizeColumnToContents(OpStatsModel::Key);  // the names' own width (the rows shown), once per model
    m_nameWidth = m_table->horizontalHeader()->sectionSize(OpStatsModel::Key) + 12;
    fitNameColumn();
}

void OpStatsView::fitNameColumn() {
    // As wide as the names need, up to what the other columns leave (a share bar of 120 px
    // at least): at 1920 px long kernel names show whole, at 1280 they are cut.
    auto* header = m_table->horizontalHeader();
    int others = 0;
    for (int c = 0; c < OpStatsModel::ColumnCount; ++c)
        if (c != OpStatsModel::Key && c != OpStatsModel::Share) others += header->sectionSize(c);
    const int room = m_table->viewport()->width() - others - 120;
    header->resizeSection(OpStatsModel::Key, std::max(240, std::min(m_nameWidth, room)));
}

void OpStatsView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitNameColumn();
}

QString OpStatsView::keyAt(const QModelIndex& proxyIndex) const {
    return m_proxy->index(proxyIndex.row(), OpStatsModel::Key).data(OpStatsModel::SortRole).toString();
}

QMenu* OpStatsView::contextMenuFor(const QModelIndex& proxyIndex) {
    const QString key = keyAt(proxyIndex);
    const auto grouping = m_model->grouping();
    auto* menu = new QMenu(this);
    menu->addAction(QStringLiteral("Show in Timeline"), this, [this, key, grouping] { emit rowActivated(key, grouping); });
    menu->addAction(QStringLiteral("Filter to This"), this, [this, key] { m_filter->setText(key); });
    menu->addAction(QStringLiteral("Copy Name"), this, [key] { QApplication::clipboard()->setText(key); });
    return menu;
}

bool OpStatsView::showSlice(qint64 sliceId) {
    if (!m_db) return false;
    const auto slice = m_db->slice(sliceId);
    if (!slice) return false;
    const auto grouping = m_model->grouping();
    QString key = QString::fromStdString(grouping == profiler::OpGrouping::byCategory ? slice->category
                                         : grouping == profiler::OpGrouping::byType && !slice->opType.empty()
                                             ? slice->opType
                                             : slice->name);
    auto findRow = [&]() -> QModelIndex {
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const QModelIndex i = m_model->index(r, OpStatsModel::Key);
            if (i.data(OpStatsModel::SortRole).toString() == key) return i;
        }
        return {};
    };
    QModelIndex source = findRow();
    if (!source.isValid()) {
        // Not under this device choice (a CPU op while kernels are listed): its own device.
        std::int64_t device = -1;
        for (const auto& t : m_db->tracks())
            if (t.id == slice->track) device = t.device;
        const int entry = m_device->findData(QVariant::fromValue<qlonglong>(device));
        if (entry >= 0 && entry != m_device->currentIndex()) {
            m_device->setCurrentIndex(entry);  // recomputes
            source = findRow();
        }
    }
    if (!source.isValid() && grouping == profiler::OpGrouping::byType) {
        key = QString::fromStdString(slice->name);  // imported runs group types by name
        source = findRow();
    }
    if (!source.isValid()) return false;
    if (!m_proxy->mapFromSource(source).isValid()) m_filter->clear();
    const QModelIndex shown = m_proxy->mapFromSource(source);
    m_table->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(shown, QAbstractItemView::PositionAtCenter);
    return true;
}

void OpStatsView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_db = std::move(db);
    {
        const QSignalBlocker block(m_device);
        m_device->clear();
        // Device kernels by default (what profilers rank); a CPU device lists its host
        // ops, and the last entry both.
        m_device->addItem(QStringLiteral("All device kernels"), QVariant());
        bool hasHost = false;
        if (m_db)
            for (const auto& d : m_db->devices()) {
                m_device->addItem(QString::fromStdString(d.name), QVariant::fromValue<qlonglong>(d.id));
                hasHost = hasHost || d.kind == "cpu";
            }
        if (hasHost) m_device->addItem(QStringLiteral("All devices, kernels and CPU ops"), QVariant::fromValue<qlonglong>(kEverything));
        m_device->setVisible(m_device->count() > 2);
    }
    // Simulated op names are unique per layer; their op types are what adds up.
    if (m_db) {
        const QSignalBlocker block(m_grouping);
        const auto grouping = m_db->meta("source") == "simulated" ? profiler::OpGrouping::byType : profiler::OpGrouping::byName;
        m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
    }
    recompute();
}

void OpStatsView::setGrouping(profiler::OpGrouping grouping) {
    m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
}

void OpStatsView::setFilterText(const QString& text) { m_filter->setText(text); }

void OpStatsView::setRange(std::optional<std::pair<qint64, qint64>> range) {
    m_range = range;
    recompute();
}

void OpStatsView::recompute() {
    const auto grouping = profiler::OpGrouping(m_grouping->currentData().toInt());
    if (!m_db) {
        ++m_generation;
        m_computing = false;
        m_model->setStatistics({}, grouping);
        m_info->clear();
        return;
    }
    profiler::OpStatOptions options;
    options.grouping = grouping;
    if (m_device->currentData().isValid()) {
        const qlonglong device = m_device->currentData().toLongLong();
        options.kernelsOnly = false;
        if (device != kEverything) {
            options.device = device;
            for (const auto& d : m_db->devices())
                if (d.id == device) options.kernelsOnly = d.kind != "cpu";
        }
    }
    if (m_range) options.range = std::pair<std::int64_t, std::int64_t>(m_range->first, m_range->second);
    const quint64 generation = ++m_generation;
    if (!analysesInBackground(*m_db)) {
        showStatistics(profiler::computeOpStatistics(*m_db, options), grouping);
        return;
    }
    // Past kBackgroundAnalysisSlices this reads too many kernels for the GUI thread (seconds
    // at 10M slices): on a connection of its own,
    // off the GUI thread, the table empty and the info line saying what is being computed.
    m_computing = true;
    m_model->setStatistics({}, grouping);
    m_info->setText(QStringLiteral("Computing operator statistics of %L1 slices…").arg(m_db->sliceCount()));
    whenFinished(this,
                 runOnOwnConnection(m_db->path(), [options](const profiler::ProfileDb& db) { return profiler::computeOpStatistics(db, options); }),
                 [this, generation, grouping](profiler::OpStatistics statistics) {
                     if (generation == m_generation) showStatistics(std::move(statistics), grouping);  // else asked again meanwhile
                 });
}

void OpStatsView::showStatistics(profiler::OpStatistics statistics, profiler::OpGrouping grouping) {
    m_computing = false;
    m_model->setStatistics(std::move(statistics), grouping);
    updateInfo();
}

void OpStatsView::updateInfo() {
    if (!m_db) {
        m_info->clear();
        return;
    }
    // The rows the table shows: the filter counts.
    QString info = m_proxy->rowCount() == m_model->rowCount()
                       ? QStringLiteral("%1 rows").arg(m_model->rowCount())
                       : QStringLiteral("%1 of %2 rows").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    info += QStringLiteral(" · total %1").arg(formatDuration(double(m_model->statistics().reference_ns)));
    if (m_range) info = QStringLiteral("range %1 · ").arg(formatDuration(double(m_range->second - m_range->first))) + info;
    m_info->setText(info);
    m_info->setToolTip(QStringLiteral("Shares are of the summed time of all rows (Nsight Systems' Time %), so they add up to 100%"));
}

}  // namespace npu::views
