#include "views/charts/model_state_table.h"

#include "profiler/analysis/model_state_rows.h"
#include "views/summary/json_table.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

ModelStateTable::ModelStateTable(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(QStringLiteral("<b>Parameters and model states by model</b> (bytes on one device)"), this);
    m_title->setToolTip(QStringLiteral("Trainable weights have gradients and optimizer states; frozen ones (a reference or reward "
                                       "model, LoRA's base) have neither. Bytes are one device's: its tensor-parallel shard, with ZeRO's "
                                       "sharding; optimizer states offloaded to the host are not on the device. The totals are what the step "
                                       "holds at some point, not all at once: PPO frees the actor's gradients before the critic trains."));
    m_model = new RecordTableModel(this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(22);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, [this] { m_view->resizeColumnsToContents(); });
    hide();
}

void ModelStateTable::setDatabase(const profiler::ProfileDb* db) {
    const nlohmann::json rows =
        profiler::modelStateRows(db ? nlohmann::json::parse(db->meta("summary"), nullptr, false) : nlohmann::json());
    if (rows.empty()) {
        m_model->clear();
        hide();
        return;
    }
    fillFromJsonRows(*m_model, rows,
                     {"model", "trainable_params", "frozen_params", "trainable_weights_bytes", "frozen_weights_bytes", "gradients_bytes",
                      "optimizer_states_bytes", "total_bytes"});
    // One row per model plus the totals: no scrolling for the largest ensemble (PPO's five rows).
    m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() + 22 * int(rows.size()) + 4);
    show();
}

}  // namespace npu::views
