#include "views/charts/memory_blocks_panel.h"

#include "profiler/analysis/memory_live_blocks.h"
#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/tables/record_table_model.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

MemoryBlocksPanel::MemoryBlocksPanel(QWidget* parent) : QWidget(parent) {
    m_model = new RecordTableModel(this);
    m_model->setHeaders({QStringLiteral("Block"), QStringLiteral("Size"), QStringLiteral("Category"), QStringLiteral("Producer op"),
                         QStringLiteral("Allocated"), QStringLiteral("Freed"), QStringLiteral("Lifetime"), QStringLiteral("Address")},
                        {QStringLiteral("The tensor (simulated runs) or the allocation (snapshots) the block holds"),
                         QStringLiteral("Block size as the allocator rounded it"), {},
                         QStringLiteral("The op whose output the block holds; resident tensors have none"),
                         QStringLiteral("Allocation time, from the start of the run"),
                         QStringLiteral("Release time; \"live at end\" when never freed"), QStringLiteral("Freed − allocated"),
                         QStringLiteral("Address inside the device's reserved memory")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RecordTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(1, Qt::DescendingOrder);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = {300, 80, 110, 260, 90, 90, 90};
    for (int c = 0; c < 7; ++c) m_table->horizontalHeader()->resizeSection(c, widths[c]);
    m_table->setToolTip(QStringLiteral("Double-click a block to show its producer op in the Timeline"));
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { showInTimeline(i.row()); });

    m_info = new QLabel(this);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_info->setToolTip(QStringLiteral("Allocated: the blocks' sizes as the allocator hands them out, rounded up (512 B, 2 MiB); "
                                      "the chart's \"Memory (live bytes)\" curve counts the tensors' own sizes, a little lower"));
    m_changedOnly = new QCheckBox(QStringLiteral("Allocated or released in range"), this);
    m_changedOnly->setToolTip(QStringLiteral("Only the blocks allocated or freed inside the selected range"));
    connect(m_changedOnly, &QCheckBox::toggled, this, [this] { refresh(); });
    m_toTimeline = new QPushButton(QStringLiteral("Show in Timeline"), this);
    m_toTimeline->setToolTip(QStringLiteral("Show the selected block's producer op in the Timeline tab"));
    m_toTimeline->setEnabled(false);
    connect(m_toTimeline, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty()) showInTimeline(rows.front().row());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_toTimeline->setEnabled(m_table->selectionModel()->hasSelection()); });
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_info, 1);
    bar->addWidget(m_changedOnly);
    bar->addWidget(m_toTimeline);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    clearSelection();
}

void MemoryBlocksPanel::setDatabase(std::shared_ptr<const profiler::ProfileDb> db, std::int64_t device, std::int64_t t0) {
    m_db = std::move(db);
    m_device = device;
    m_t0 = t0;
    clearSelection();
}

void MemoryBlocksPanel::setSelection(std::int64_t from_ns, std::int64_t to_ns) {
    m_from = std::min(from_ns, to_ns);
    m_to = std::max(from_ns, to_ns);
    refresh();
}

void MemoryBlocksPanel::clearSelection() {
    m_from = m_to = -1;
    refresh();
}

void MemoryBlocksPanel::setChangedOnly(bool on) { m_changedOnly->setChecked(on); }

QString MemoryBlocksPanel::headline() const { return m_info->text(); }

void MemoryBlocksPanel::refresh() {
    m_refs.clear();
    std::vector<std::vector<RecordCell>> rows;
    const bool instant = m_from == m_to;
    m_changedOnly->setEnabled(m_from >= 0);
    if (!m_db || m_from < 0) {
        m_model->setRows({});
        m_info->setText(m_db ? QStringLiteral("Click the chart for the blocks live at an instant; Shift+drag for a range.")
                             : QString());
        m_toTimeline->setEnabled(false);
        return;
    }
    profiler::LiveBlockQuery q{m_device, m_from, m_to, m_changedOnly->isChecked(), std::size_t(kMaxRows)};
    const profiler::LiveBlocks live = profiler::liveBlocks(*m_db, q);
    rows.reserve(live.blocks.size());
    for (const auto& b : live.blocks) {
        const QString freed = b.free_ns < 0 ? QStringLiteral("live at end") : formatDuration(double(b.free_ns - m_t0));
        const QString lifetime = b.free_ns < 0 ? QStringLiteral("—") : formatDuration(double(b.free_ns - b.alloc_ns));
        const QString name = QString::fromStdString(b.name);
        const QString producer = QString::fromStdString(b.producer);
        rows.push_back({RecordCell(name, {}, name), RecordCell(formatBytes(double(b.size)), qlonglong(b.size)),
                        RecordCell(QString::fromStdString(b.category.empty() ? std::string("other") : b.category)),
                        RecordCell(producer, {}, producer),
                        RecordCell(formatDuration(double(b.alloc_ns - m_t0)), qlonglong(b.alloc_ns)),
                        RecordCell(freed, qlonglong(b.free_ns < 0 ? INT64_MAX : b.free_ns)),
                        RecordCell(lifetime, qlonglong(b.free_ns < 0 ? INT64_MAX : b.free_ns - b.alloc_ns)),
                        b.addr < 0 ? RecordCell(QStringLiteral("—"), qlonglong(b.addr))  // Ascend: no addresses
                                   : RecordCell(QStringLiteral("0x%1").arg(qulonglong(b.addr), 0, 16), qlonglong(b.addr))});
        m_refs.push_back({b.alloc_ns, b.producer});
    }
    m_model->setRows(std::move(rows));
    QString where = instant ? QStringLiteral("at %1").arg(formatDuration(double(m_from - m_t0)))
                            : QStringLiteral("%1 – %2 (%3)")
                                  .arg(formatDuration(double(m_from - m_t0)), formatDuration(double(m_to - m_t0)),
                                       formatDuration(double(m_to - m_from)));
    // Two figures, named (issue 24): the blocks' sizes are the allocator's, rounded up, so
    // their sum sits a little above the chart's live-bytes curve at the same instant.
    QString text = QStringLiteral("%1 block(s), %2 allocated %3 %4")
                       .arg(live.count)
                       .arg(formatBytes(double(live.bytes)))
                       .arg(m_changedOnly->isChecked() ? QStringLiteral("allocated or released")
                            : instant                   ? QStringLiteral("live")
                                                        : QStringLiteral("alive"))
                       .arg(where);
    if (live.count > std::int64_t(live.blocks.size())) text += QStringLiteral(" · the largest %1 listed").arg(live.blocks.size());
    m_info->setText(text);
    m_toTimeline->setEnabled(m_table->selectionModel()->hasSelection());
}

bool MemoryBlocksPanel::showInTimeline(int proxyRow) {
    const int row = m_proxy->mapToSource(m_proxy->index(proxyRow, 0)).row();
    if (!m_db || row < 0 || row >= int(m_refs.size())) return false;
    const RowRef& ref = m_refs[std::size_t(row)];
    if (const auto slice = profiler::producerSlice(*m_db, m_device, ref.producer, ref.alloc_ns)) emit sliceRequested(slice->task_id);
    else emit timeRequested(ref.alloc_ns);
    return true;
}

}  // namespace npu::views
