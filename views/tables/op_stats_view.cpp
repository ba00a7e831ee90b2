#include "views/tables/op_stats_view.h"

#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/share_bar_delegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
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
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->setItemDelegateForColumn(OpStatsModel::Share, new ShareBarDelegate(OpStatsModel::FractionRole, this));
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    auto* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    const int widths[] = {360, 110, 70, 95, 95, 95, 95, 160};
    for (int c = 0; c < OpStatsModel::ColumnCount; ++c) header->resizeSection(c, widths[c]);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex key = m_proxy->index(index.row(), OpStatsModel::Key);
        emit rowActivated(key.data(OpStatsModel::SortRole).toString(), m_model->grouping());
    });
}

void OpStatsView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_db = std::move(db);
    {
        const QSignalBlocker block(m_device);
        m_device->clear();
        m_device->addItem(QStringLiteral("All devices"), QVariant());
        if (m_db)
            for (const auto& d : m_db->devices())
                m_device->addItem(QString::fromStdString(d.name), QVariant::fromValue<qlonglong>(d.id));
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
        m_model->setStatistics({}, grouping);
        m_info->clear();
        return;
    }
    profiler::OpStatOptions options;
    options.grouping = grouping;
    if (m_device->currentData().isValid()) options.device = m_device->currentData().toLongLong();
    if (m_range) options.range = std::pair<std::int64_t, std::int64_t>(m_range->first, m_range->second);
    m_model->setStatistics(profiler::computeOpStatistics(*m_db, options), grouping);
    QString info = QStringLiteral("%1 rows · reference %2")
                       .arg(m_model->rowCount())
                       .arg(formatDuration(double(m_model->statistics().reference_ns)));
    if (m_range) info = QStringLiteral("range %1 · ").arg(formatDuration(double(m_range->second - m_range->first))) + info;
    m_info->setText(info);
    m_info->setToolTip(QStringLiteral("Shares are relative to the step time when the run has steps, else the busy span"));
}

}  // namespace npu::views
