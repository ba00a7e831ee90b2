#include "views/tables/oom_panel.h"

#include "views/common/units.h"
#include "views/tables/advice_table.h"
#include "views/tables/record_table_model.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

namespace npu::views {

OomPanel::OomPanel(QWidget* parent) : QWidget(parent) {
    m_headline = new QLabel(this);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tensors = new RecordTableModel(this);
    m_tensors->setHeaders({QStringLiteral("Live tensor"), QStringLiteral("Size"), QStringLiteral("Category"), QStringLiteral("Producer op"),
                           QStringLiteral("Allocated"), QStringLiteral("Freed")});
    m_advice = new RecordTableModel(this);
    m_advice->setHeaders({QStringLiteral("Advice"), QStringLiteral("Change"), QStringLiteral("Peak allocated"),
                          QStringLiteral("Peak reserved"), QStringLiteral("Step time"), QStringLiteral("Fits")},
                         {QStringLiteral("The playbook step, in the toolchain's order"), QStringLiteral("The project setting it changes"),
                          QStringLiteral("Re-simulated with the change"), QStringLiteral("Re-simulated with the change"),
                          QStringLiteral("Re-simulated with the change"), QStringLiteral("Reserved peak within the device's memory")});
    m_tensorTable = makeAdviceTable(this, m_tensors, {300, 90, 120, 260, 90});
    m_adviceTable = makeAdviceTable(this, m_advice, {170, 440, 110, 110, 100});
    auto* toTimeline = new QPushButton(QStringLiteral("Show in Timeline"), this);
    toTimeline->setToolTip(QStringLiteral("Show the op whose allocation failed in the Timeline tab"));
    connect(toTimeline, &QPushButton::clicked, this, [this] {
        if (m_present) emit showInTimeline(m_op, m_time);
    });
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline, 0, 0);
    layout->addWidget(toTimeline, 0, 1, Qt::AlignTop);
    layout->addWidget(new QLabel(QStringLiteral("<b>Advice</b> (each re-simulated)"), this), 1, 0, 1, 2);
    layout->addWidget(m_adviceTable, 2, 0, 1, 2);
    layout->addWidget(new QLabel(QStringLiteral("<b>Largest tensors live at the failure</b>"), this), 3, 0, 1, 2);
    layout->addWidget(m_tensorTable, 4, 0, 1, 2);
    layout->setRowStretch(2, 1);
    layout->setRowStretch(4, 2);
    layout->setColumnStretch(0, 1);
}

void OomPanel::setSummary(const std::optional<engine::MemorySummary>& summary, double capacity, qint64 t0) {
    m_present = summary && summary->oom.present;
    std::vector<std::vector<RecordCell>> tensors, advice;
    if (!m_present) {
        m_headline->clear();
        m_tensors->setRows({});
        m_advice->setRows({});
        return;
    }
    const engine::OomReport& oom = summary->oom;
    m_op = QString::fromStdString(oom.op);
    m_time = oom.time_ns;
    QString text = QStringLiteral("<b>Out of memory</b> at %1 in <b>%2</b>: the %3 allocator could not place %4")
                       .arg(formatDuration(double(oom.time_ns - t0)), m_op.toHtmlEscaped(),
                            QString::fromStdString(summary->allocator), formatBytes(double(oom.request_bytes)));
    if (!oom.tensor.empty() && oom.tensor != oom.op)
        text += QStringLiteral(" for <i>%1</i>").arg(QString::fromStdString(oom.tensor).toHtmlEscaped());
    if (capacity > 0) text += QStringLiteral(" within the device's %1").arg(formatBytes(capacity));
    if (oom.training_step == 1) text += QStringLiteral(", in the first training step (optimizer states are created there)");
    else if (oom.training_step > 1) text += QStringLiteral(", in a later training step");
    // Reserved is what the step needs: the allocator replayed without the device's limit.
    if (summary->lower_bound_bytes > 0)
        text += QStringLiteral(". The step needs %1 reserved (live tensors peak at %2)")
                    .arg(formatBytes(double(summary->reserved_peak_bytes)), formatBytes(double(summary->lower_bound_bytes)));
    text += QLatin1Char('.');
    m_headline->setText(text);
    for (const auto& t : oom.top_tensors) {
        const QString name = QString::fromStdString(t.name);
        tensors.push_back({RecordCell(name, {}, name), RecordCell(formatBytes(double(t.bytes)), qlonglong(t.bytes)),
                           RecordCell(QString::fromStdString(t.category)), RecordCell(QString::fromStdString(t.producer)),
                           RecordCell(formatDuration(double(t.alloc_ns - t0)), qlonglong(t.alloc_ns)),
                           RecordCell(t.free_ns < 0 ? QStringLiteral("live at end") : formatDuration(double(t.free_ns - t0)),
                                      qlonglong(t.free_ns))});
    }
    for (const auto& a : oom.advice) {
        const QString change = QString::fromStdString(a.change);
        advice.push_back({RecordCell(QString::fromStdString(a.action)), RecordCell(change, {}, change),
                          RecordCell(formatBytes(double(a.predicted_peak_bytes)), qlonglong(a.predicted_peak_bytes)),
                          RecordCell(formatBytes(double(a.predicted_reserved_bytes)), qlonglong(a.predicted_reserved_bytes)),
                          RecordCell(formatDuration(a.predicted_step_time_ms * 1e6), a.predicted_step_time_ms),
                          RecordCell(a.fits ? QStringLiteral("yes") : QStringLiteral("no"), int(a.fits))});
    }
    m_tensors->setRows(std::move(tensors));
    m_advice->setRows(std::move(advice));
}

QString OomPanel::headline() const { return m_headline->text(); }

}  // namespace npu::views
