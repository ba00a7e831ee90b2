#include "views/tables/communication_advice_panel.h"

#include "engine/result/cluster_summary_json.h"
#include "views/common/units.h"
#include "views/tables/advice_table.h"
#include "views/tables/record_table_model.h"

#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

CommunicationAdvicePanel::CommunicationAdvicePanel(QWidget* parent) : QWidget(parent) {
    m_headline = new QLabel(this);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_advice = new RecordTableModel(this);
    m_advice->setHeaders({QStringLiteral("Advice"), QStringLiteral("Change"), QStringLiteral("Step time"), QStringLiteral("vs this run"),
                          QStringLiteral("Exposed comm / compute"), QStringLiteral("Why")},
                         {QStringLiteral("The playbook step"), QStringLiteral("The project settings it changes"),
                          QStringLiteral("Re-simulated with the change"), QStringLiteral("Re-simulated step time / this run's - 1"),
                          QStringLiteral("Communication not hidden behind compute / computing, slowest rank, re-simulated"),
                          QStringLiteral("Why the playbook suggests it")});
    m_table = makeAdviceTable(this, m_advice, {150, 380, 90, 90, 170});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_table, 1);
}

void CommunicationAdvicePanel::setAdvice(const std::vector<engine::CommunicationAdvice>& advice, double stepMs) {
    m_present = !advice.empty();
    std::vector<std::vector<RecordCell>> rows;
    if (!m_present) {
        m_headline->clear();
        m_advice->setRows({});
        return;
    }
    // Every reason starts with the same diagnosis; the headline says it once.
    const std::string& first = advice.front().reason;
    const QString diagnosis = QString::fromStdString(first.substr(0, first.find(';')));
    m_headline->setText(QStringLiteral("<b>Communication</b>: %1. Advice, each re-simulated, best first%2:")
                            .arg(diagnosis.toHtmlEscaped(),
                                 stepMs > 0 ? QStringLiteral(" (this run: %1 a step)").arg(formatDuration(stepMs * 1e6)) : QString()));
    for (const auto& a : advice) {
        const QString change = QString::fromStdString(engine::describeChange(a.change));
        const std::string& r = a.reason;
        const auto cut = r.find("; ");
        const QString why = QString::fromStdString(cut == std::string::npos ? r : r.substr(cut + 2));
        const double gain = stepMs > 0 ? a.predicted_step_time_ms / stepMs - 1 : 0;
        rows.push_back({RecordCell(QString::fromStdString(a.action)), RecordCell(change, {}, change),
                        RecordCell(formatDuration(a.predicted_step_time_ms * 1e6), a.predicted_step_time_ms),
                        RecordCell(stepMs > 0 ? (gain > 0 ? QStringLiteral("+") : QString()) + formatPercent(gain) : QStringLiteral("—"), gain),
                        RecordCell(formatPercent(a.predicted_comm_ratio), a.predicted_comm_ratio), RecordCell(why, {}, why)});
    }
    m_advice->setRows(std::move(rows));
}

QString CommunicationAdvicePanel::headline() const { return m_headline->text(); }

}  // namespace npu::views
