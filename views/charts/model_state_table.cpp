#include "views/charts/model_state_table.h"

#include "views/summary/json_table.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace npu::views {

namespace {

// The summary's keys and the table's columns (named for their header: "Gradients").
constexpr std::pair<const char*, const char*> kByteKeys[] = {{"trainable_weight_bytes", "trainable_weights_bytes"},
                                                             {"frozen_weight_bytes", "frozen_weights_bytes"},
                                                             {"gradient_bytes", "gradients_bytes"},
                                                             {"optimizer_state_bytes", "optimizer_states_bytes"}};

}  // namespace

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
    const nlohmann::json summary = db ? nlohmann::json::parse(db->meta("summary"), nullptr, false) : nlohmann::json();
    if (!summary.is_object() || !summary.contains("bytes_by_model") || !summary["bytes_by_model"].is_object()) {
        m_model->clear();
        hide();
        return;
    }
    const nlohmann::json& params = summary.contains("params_by_model") ? summary["params_by_model"] : nlohmann::json::object();
    nlohmann::json rows = nlohmann::json::array();
    nlohmann::json total = {{"model", "all models"}, {"trainable_params", 0}, {"frozen_params", 0}, {"total_bytes", 0}};
    for (const auto& [key, column] : kByteKeys) total[column] = 0;
    for (const auto& [name, bytes] : summary["bytes_by_model"].items()) {
        nlohmann::json row = {{"model", name}};
        // A single model's counts are the run's (its row is "model").
        const nlohmann::json& p = params.contains(name) ? params[name] : summary;
        for (const char* key : {"trainable_params", "frozen_params"}) {
            row[key] = p.value(key, std::int64_t{0});
            total[key] = total[key].get<std::int64_t>() + row[key].get<std::int64_t>();
        }
        std::int64_t sum = 0;
        for (const auto& [key, column] : kByteKeys) {
            row[column] = bytes.value(key, std::int64_t{0});
            sum += row[column].get<std::int64_t>();
            total[column] = total[column].get<std::int64_t>() + row[column].get<std::int64_t>();
        }
        row["total_bytes"] = sum;
        total["total_bytes"] = total["total_bytes"].get<std::int64_t>() + sum;
        rows.push_back(std::move(row));
    }
    if (rows.size() > 1) rows.push_back(std::move(total));
    fillFromJsonRows(*m_model, rows,
                     {"model", "trainable_params", "frozen_params", "trainable_weights_bytes", "frozen_weights_bytes", "gradients_bytes",
                      "optimizer_states_bytes", "total_bytes"});
    // One row per model plus the totals: no scrolling for the largest ensemble (PPO's five rows).
    m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() + 22 * int(rows.size()) + 4);
    show();
}

}  // namespace npu::views
