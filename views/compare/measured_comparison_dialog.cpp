#include "views/compare/measured_comparison_dialog.h"

#include "views/common/units.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace npu::views {

namespace {

QTableWidgetItem* numberItem(const QString& text, double sortValue) {
    auto* item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, sortValue);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidget* makeTable(const std::vector<profiler::MeasuredCategoryRow>& rows, const QString& firstColumn, QWidget* parent) {
    auto* t = new QTableWidget(int(rows.size()), 6, parent);
    t->setHorizontalHeaderLabels({firstColumn, QStringLiteral("Simulated ops"), QStringLiteral("Measured kernels"),
                                  QStringLiteral("Simulated"), QStringLiteral("Measured"), QStringLiteral("Error")});
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < int(rows.size()); ++i) {
        const auto& r = rows[size_t(i)];
        t->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(r.name)));
        t->setItem(i, 1, numberItem(QString::number(r.simulated_count), double(r.simulated_count)));
        t->setItem(i, 2, numberItem(QString::number(r.measured_count), double(r.measured_count)));
        t->setItem(i, 3, numberItem(formatDuration(double(r.simulated_ns)), double(r.simulated_ns)));
        t->setItem(i, 4, numberItem(formatDuration(double(r.measured_ns)), double(r.measured_ns)));
        const bool measured = r.measured_ns > 0;
        auto* err = numberItem(measured ? QStringLiteral("%1%2 %").arg(r.error() >= 0 ? QStringLiteral("+") : QString())
                                                .arg(100 * r.error(), 0, 'f', 1)
                                         : QStringLiteral("—"),
                               measured ? r.error() : 0.0);
        // Beyond the calibration targets' 15 %: worth a look.
        if (measured && std::abs(r.error()) > 0.15) err->setForeground(QColor(0xc0, 0x39, 0x2b));
        t->setItem(i, 5, err);
    }
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    t->resizeColumnsToContents();
    return t;
}

}  // namespace

MeasuredComparisonDialog::MeasuredComparisonDialog(const profiler::MeasuredComparison& c, const QString& simulatedName,
                                                   const QString& measuredName, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(QStringLiteral("Simulated vs measured: %1").arg(measuredName));
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(QStringLiteral("<b>%1</b> (simulated) against <b>%2</b> (measured)")
                                 .arg(simulatedName.toHtmlEscaped(), measuredName.toHtmlEscaped()),
                             this);
    title->setTextFormat(Qt::RichText);
    layout->addWidget(title);
    const auto& s = c.step;
    m_step = new QLabel(QStringLiteral("Step: simulated %1 (device busy %2) · measured %3 (device busy %4, idle %5)")
                            .arg(formatDuration(double(s.simulated_ns)), formatDuration(double(s.simulated_busy_ns)),
                                 formatDuration(double(s.measured_ns)), formatDuration(double(s.measured_busy_ns)),
                                 formatDuration(double(s.measured_idle_ns))),
                        this);
    layout->addWidget(m_step);
    m_categories = makeTable(c.categories, QStringLiteral("Category"), this);
    layout->addWidget(m_categories, 3);
    auto* note = new QLabel(QStringLiteral("Device time per category, matched by totals (PyTorch splits some ops into "
                                           "several kernels). Major groups:"),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    m_major = makeTable(c.majorGroups, QStringLiteral("Group"), this);
    layout->addWidget(m_major, 2);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 560);
}

}  // namespace npu::views
