#include "views/dialogs/conversion_report_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace npu::views {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
QString count(std::int64_t v) { return QLocale(QLocale::English, QLocale::UnitedStates).toString(static_cast<qlonglong>(v)); }
}  // namespace

ConversionReportPanel::ConversionReportPanel(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_ops(new QStandardItemModel(this)), m_table(new QTableView(this)),
      m_messages(new QPlainTextEdit(this)) {
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setModel(m_ops);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_messages->setReadOnly(true);
    m_messages->setMaximumHeight(140);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_messages);
}

void ConversionReportPanel::setReport(const engine::ConversionReport& r) {
    const bool ok = r.status == "ok";
    m_summary->setText(
        tr("<b>%1</b> &nbsp; %2, opset %3<br>"
           "<b>Status:</b> <span style='color:%4'>%5</span> &nbsp; %6 nodes, %7 parameters<br>"
           "<b>Forward:</b> %8 MACs, %9 FLOPs &nbsp; converted in %10 s")
            .arg(qs(r.model).toHtmlEscaped(), qs(r.producer).toHtmlEscaped(), QString::number(r.opset),
                 ok ? QStringLiteral("#080") : QStringLiteral("#c00"), qs(r.status), count(r.nodes), count(r.params),
                 count(r.forwardMacs), count(r.forwardFlops))
            .arg(r.seconds, 0, 'f', 2));

    std::set<std::string> unsupported;
    for (const auto& u : r.unsupported) unsupported.insert(u.opType);
    m_ops->clear();
    m_ops->setHorizontalHeaderLabels({tr("Op type"), tr("Nodes"), tr("Status")});
    for (const auto& [op, n] : r.opTypes) {
        const bool bad = unsupported.count(op) > 0;
        auto* name = new QStandardItem(qs(op));
        auto* number = new QStandardItem;
        number->setData(static_cast<qlonglong>(n), Qt::DisplayRole);
        auto* status = new QStandardItem(bad ? tr("unsupported: kept opaque, costed by bytes") : tr("converted"));
        for (auto* item : {name, number, status}) {
            item->setEditable(false);
            if (bad) {
                item->setBackground(QColor(0xFF, 0xD6, 0xD6));
                item->setForeground(QColor(0x90, 0, 0));
            }
        }
        m_ops->appendRow({name, number, status});
    }
    // Unsupported first: they are what the user has to act on.
    m_table->sortByColumn(2, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();

    QStringList lines;
    for (const auto& u : r.unsupported) {
        QStringList nodes;
        for (const auto& n : u.nodes) nodes << qs(n);
        lines << tr("unsupported %1: %2").arg(qs(u.opType), nodes.join(QStringLiteral(", ")));
    }
    for (const auto& d : r.unboundDims)
        lines << tr("unbound dimension %1[%2]%3 (%4)")
                     .arg(qs(d.tensor))
                     .arg(d.axis)
                     .arg(d.symbol.empty() ? QString() : QStringLiteral(" '") + qs(d.symbol) + QStringLiteral("'"), qs(d.where));
    for (const auto& w : r.warnings) lines << tr("warning: %1").arg(qs(w));
    for (const auto& l : r.log) lines << qs(l);
    m_messages->setPlainText(lines.join(QLatin1Char('\n')));
}

QString ConversionReportPanel::summaryText() const { return m_summary->text(); }
QString ConversionReportPanel::messagesText() const { return m_messages->toPlainText(); }

}  // namespace npu::views
