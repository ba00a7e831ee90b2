#include "views/regression/regression_panel.h"

#include "views/regression/suite_report_model.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

RegressionPanel::RegressionPanel(QWidget* parent)
    : QWidget(parent), m_model(new SuiteReportModel(this)), m_table(new QTableView(this)), m_summary(new QLabel(this)),
      m_status(new QLabel(this)), m_compare(new QPushButton(QStringLiteral("Compare with baseline"), this)),
      m_openRun(new QPushButton(QStringLiteral("Open run"), this)) {
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_summary, 1);
    buttons->addWidget(m_openRun);
    buttons->addWidget(m_compare);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { updateButtons(); });
    connect(m_table, &QTableView::doubleClicked, this, [this] { compareSelected(); });
    connect(m_compare, &QPushButton::clicked, this, [this] { compareSelected(); });
    connect(m_openRun, &QPushButton::clicked, this, [this] {
        if (const auto* c = m_model->caseAt(m_table->currentIndex().row()); c && !c->db.empty())
            emit openRunRequested(QString::fromStdString(c->db));
    });
    updateButtons();
}

QString RegressionPanel::openReport(const QString& file) {
    auto report = regression::loadSuiteReport(file.toStdString());
    if (!report) return QString::fromStdString(report.message());
    int failed = 0, errors = 0;
    for (const auto& c : report->cases) {
        failed += c.status == regression::CaseStatus::fail;
        errors += c.status == regression::CaseStatus::error;
    }
    const int cases = int(report->cases.size());
    m_summary->setText(QStringLiteral("<b>%1</b>: %2 case(s), %3 passed, %4 failed, %5 could not run")
                           .arg(QFileInfo(QString::fromStdString(report->suite)).fileName().toHtmlEscaped())
                           .arg(cases)
                           .arg(cases - failed - errors)
                           .arg(failed)
                           .arg(errors));
    m_model->setReport(std::move(*report));
    m_table->resizeColumnsToContents();
    if (m_model->rowCount() > 0) m_table->selectRow(0);
    m_status->setText(QStringLiteral("Double-click a row to compare its run with the baseline run."));
    updateButtons();
    return {};
}

bool RegressionPanel::compareSelected() {
    const auto* c = m_model->caseAt(m_table->currentIndex().row());
    if (!c) return false;
    const QString db = QString::fromStdString(c->db), base = QString::fromStdString(c->baselineDb);
    QString problem;
    if (c->kind == "convert") problem = QStringLiteral("a convert case has no timeline to compare");
    else if (db.isEmpty()) problem = QStringLiteral("the case did not produce a run");
    else if (base.isEmpty()) problem = QStringLiteral("the baseline names no run for this case (update it with --out below the baseline's folder)");
    else if (!QFileInfo::exists(db)) problem = QStringLiteral("%1: no such run").arg(db);
    else if (!QFileInfo::exists(base)) problem = QStringLiteral("%1: no such baseline run").arg(base);
    if (!problem.isEmpty()) {
        m_status->setText(QStringLiteral("%1: cannot compare: %2").arg(QString::fromStdString(c->name), problem));
        return false;
    }
    m_status->setText(QStringLiteral("%1: comparing %2 (B) with its baseline %3 (A)").arg(QString::fromStdString(c->name), db, base));
    emit compareRequested(base, db);
    return true;
}

void RegressionPanel::updateButtons() {
    const auto* c = m_model->caseAt(m_table->currentIndex().row());
    m_compare->setEnabled(c && !c->db.empty() && !c->baselineDb.empty() && c->kind != "convert");
    m_openRun->setEnabled(c && !c->db.empty() && c->kind != "convert");
}

}  // namespace npu::views
