#include "views/charts/rank_memory_table.h"

#include "profiler/analysis/rank_class_memory_rows.h"
#include "profiler/store/memory_summary_json.h"
#include "views/summary/json_table.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

RankMemoryTable::RankMemoryTable(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(QStringLiteral("<b>Memory per rank class</b> (one device of each pipeline stage, at its own peak)"), this);
    m_title->setToolTip(QStringLiteral("Each stage holds the activations of the micro-batches its schedule has in flight: GPipe all "
                                       "of them, 1F1B p - s on stage s, interleaved Megatron's p(1 + (p-1)/(pv)) on the first. The "
                                       "breakdown is of the live bytes at the stage's peak; the allocator overhead is reserved minus "
                                       "allocated (estimated from the stage's one-micro-batch run). docs/memory-model.md"));
    m_model = new RecordTableModel(this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(22);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, [this] { m_view->resizeColumnsToContents(); });
    hide();
}

void RankMemoryTable::setDatabase(const profiler::ProfileDb* db) {
    const auto memory = db ? profiler::storedMemorySummary(*db) : std::nullopt;
    const nlohmann::json rows = memory ? profiler::rankClassMemoryRows(*memory) : nlohmann::json::array();
    if (rows.empty()) {
        m_model->clear();
        hide();
        return;
    }
    fillFromJsonRows(*m_model, rows,
                     {"rank_class", "ranks", "micro_batches_in_flight", "activations_per_micro_batch_bytes", "peak_bytes", "reserved_bytes",
                      "weights_bytes", "master_weights_bytes", "gradients_bytes", "optimizer_states_bytes", "activations_bytes",
                      "temporaries_bytes", "gathered_weights_bytes", "comm_buffers_bytes", "allocator_overhead_bytes", "out_of_memory"});
    // Up to eight stages without scrolling; deeper pipelines scroll.
    const int shown = std::min<int>(8, static_cast<int>(rows.size()));
    m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() + 22 * shown + 4 +
                           m_view->horizontalScrollBar()->sizeHint().height());  // the columns may not fit the width
    show();
}

}  // namespace npu::views
