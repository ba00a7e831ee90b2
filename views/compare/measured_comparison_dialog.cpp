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

QString signedPercent(double fraction) {
    return QStringLiteral("%1%2 %").arg(fraction >= 0 ? QStringLiteral("+") : QString()).arg(100 * fraction, 0, 'f', 1);
}

// The category rows and, with `total`, a last row summing them: every op falls in one
// category, so the sum is each side's whole kernel time (overlapping kernels counted in
// full, unlike the step's device busy time above). The major groups cover only some ops: no total.
QTableWidget* makeTable(std::vector<profiler::MeasuredCategoryRow> rows, const QString& firstColumn, bool total, QWidget* parent) {
    if (total && !rows.empty()) {
        profiler::MeasuredCategoryRow sum;
        sum.name = "Total";
        for (const auto& r : rows) {
            sum.simulated_count += r.simulated_count;
            sum.measured_count += r.measured_count;
            sum.simulated_ns += r.simulated_ns;
            sum.measured_ns += r.measured_ns;
        }
        rows.push_back(sum);
    }
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
        auto* err = numberItem(measured ? signedPercent(r.error()) : QStringLiteral("—"), measured ? r.error() : 0.0);
        // Beyond the calibration targets' 15 %: worth a look.
        if (measured && std::abs(r.error()) > 0.15) err->setForeground(QColor(0xc0, 0x39, 0x2b));
        t->setItem(i, 5, err);
    }
    if (total && !rows.empty())
        for (int c = 0; c < t->columnCount(); ++c)
            if (QTableWidgetItem* item = t->item(t->rowCount() - 1, c)) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
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
    // The figure asked first: how far the simulated step is from the measured one.
    m_headline = new QLabel(this);
    m_headline->setTextFormat(Qt::RichText);
    if (s.measured_ns > 0)
        m_headline->setText(QStringLiteral("<span style='font-size:large'>simulated <b>%1</b> vs measured <b>%2</b>: <b>%3</b></span>")
                                .arg(formatDuration(double(s.simulated_ns)), formatDuration(double(s.measured_ns)),
                                     signedPercent(double(s.simulated_ns) / double(s.measured_ns) - 1.0)));
    else
        m_headline->setText(QStringLiteral("The measured run has no step to compare with."));
    layout->addWidget(m_headline);
    m_step = new QLabel(QStringLiteral("Step: simulated %1 (device busy %2) · measured %3 (device busy %4, idle %5)")
                            .arg(formatDuration(double(s.simulated_ns)), formatDuration(double(s.simulated_busy_ns)),
                                 formatDuration(double(s.measured_ns)), formatDuration(double(s.measured_busy_ns)),
                                 formatDuration(double(s.measured_idle_ns))),
                        this);
    layout->addWidget(m_step);
    m_categories = makeTable(c.categories, QStringLiteral("Category"), true, this);
    layout->addWidget(m_categories, 3);
    auto* note = new QLabel(QStringLiteral("Device time per category, matched by totals (PyTorch splits some ops into "
                                           "several kernels). Major groups:"),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    m_major = makeTable(c.majorGroups, QStringLiteral("Group"), false, this);
    layout->addWidget(m_major, 2);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 560);
}

}  // namespace npu::views
