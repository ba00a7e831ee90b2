#include "views/dialogs/strategy_search_dialog.h"

#include "views/charts/strategy_scatter.h"
#include "views/common/units.h"

#include <QFileDialog>
#include <QSplitter>
#include <QDialogButtonBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace npu::views {

namespace {

enum Column { kRank, kDp, kTp, kPp, kSchedule, kMicro, kZero, kRecompute, kStep, kTokens, kPeak, kStatus, kColumns };

QTableWidgetItem* cell(const QString& text, bool number = true) {
    auto* item = new QTableWidgetItem(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

StrategySearchDialog::StrategySearchDialog(engine::Project project, QWidget* parent)
    : QDialog(parent), m_project(std::move(project)) {
    setWindowTitle(QStringLiteral("Search Parallel Strategies — %1").arg(QString::fromStdString(m_project.name)));
    auto* intro = new QLabel(QStringLiteral("Strategies for %1 on the project's %2 cluster: data × tensor × pipeline parallel, "
                                            "micro-batches, ZeRO and recomputation, each simulated and ranked by predicted tokens/s. "
                                            "Those that do not fit or were not simulated follow the ranking, greyed, with the reason "
                                            "in their tooltip.")
                                 .arg(QString::fromStdString(m_project.model.zoo.empty() ? m_project.name : m_project.model.zoo),
                                      QString::fromStdString(m_project.device)),
                             this);
    intro->setWordWrap(true);

    m_run = new QPushButton(QStringLiteral("Search"), this);
    m_run->setDefault(true);
    connect(m_run, &QPushButton::clicked, this, &StrategySearchDialog::start);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_stop = new QPushButton(QStringLiteral("Cancel"), this);
    m_stop->setEnabled(false);
    m_stop->setToolTip(QStringLiteral("Stop the search and keep the strategies simulated so far"));
    connect(m_stop, &QPushButton::clicked, this, &StrategySearchDialog::cancel);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_run);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_stop);
    m_status = new QLabel(QStringLiteral("Press Search to simulate the strategies."), this);
    m_status->setWordWrap(true);

    m_table = new QTableWidget(0, kColumns, this);
    m_table->setHorizontalHeaderLabels({QStringLiteral("#"), QStringLiteral("DP"), QStringLiteral("TP"), QStringLiteral("PP"),
                                        QStringLiteral("Schedule"), QStringLiteral("Micro-batches"), QStringLiteral("ZeRO"), QStringLiteral("Recompute"),
                                        QStringLiteral("Step"), QStringLiteral("Tokens/s"), QStringLiteral("Peak / device"),
                                        QStringLiteral("Status")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &StrategySearchDialog::updateApply);
    m_chart = new StrategyScatter(this);
    connect(m_chart, &StrategyScatter::strategyClicked, this, &StrategySearchDialog::selectStrategy);
    m_saveChart = new QPushButton(QStringLiteral("Save Chart as PNG…"), this);
    m_saveChart->setEnabled(false);
    connect(m_saveChart, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, QStringLiteral("Save Chart as PNG"),
                                                          QString::fromStdString(m_project.name) + QStringLiteral("-strategies.png"),
                                                          QStringLiteral("PNG images (*.png)"));
        if (!file.isEmpty() && !saveChart(file)) m_status->setText(QStringLiteral("Could not write %1").arg(file));
    });
    auto* chartPanel = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_chart, 1);
    chartLayout->addWidget(m_saveChart, 0, Qt::AlignRight);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(chartPanel);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    m_bounds = new QLabel(this);
    m_bounds->setWordWrap(true);
    m_bounds->setStyleSheet(QStringLiteral("color: palette(mid)"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(QStringLiteral("Apply to Project"), QDialogButtonBox::ActionRole);
    m_apply->setToolTip(QStringLiteral("Write the selected strategy into the project's parallel and training keys"));
    m_apply->setEnabled(false);
    connect(m_apply, &QPushButton::clicked, this, &StrategySearchDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    layout->addWidget(m_bounds);
    layout->addWidget(buttons);
    resize(960, 640);  // fits a 1280x720 screen with its title bar

    m_watcher = new QFutureWatcher<Expected<engine::StrategySearchResult>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        showResult(m_watcher->result());
        m_run->setEnabled(true);
        m_stop->setEnabled(false);
        emit finished();
    });
}

StrategySearchDialog::~StrategySearchDialog() {
    // The search holds its own copy of the project; stopping it keeps its thread from
    // outliving the dialog.
    m_cancel = true;
    m_watcher->waitForFinished();
}

bool StrategySearchDialog::running() const { return m_watcher->isRunning(); }
QString StrategySearchDialog::statusText() const { return m_status->text(); }

void StrategySearchDialog::cancel() {
    if (!running()) return;
    m_cancel = true;
    m_stop->setEnabled(false);
    m_status->setText(QStringLiteral("Cancelling after the current simulation…"));
}

void StrategySearchDialog::start() {
    if (running()) return;
    m_cancel = false;
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_apply->setEnabled(false);
    m_progress->setValue(0);
    m_status->setText(QStringLiteral("Searching…"));
    // Progress arrives on the worker thread; it is shown through the event loop (and
    // dropped if the dialog is gone).
    npu::Progress progress;
    progress.cancel = &m_cancel;
    progress.report = [this](double fraction, std::string_view what) {
        const QString text = QString::fromUtf8(what.data(), static_cast<qsizetype>(what.size()));
        QMetaObject::invokeMethod(this, [this, fraction, text] {
            if (!running()) return;
            m_progress->setValue(static_cast<int>(fraction * 1000));
            if (!m_cancel) m_status->setText(text);
        }, Qt::QueuedConnection);
    };
    m_watcher->setFuture(QtConcurrent::run(
        [project = m_project, options = m_options, progress] { return engine::searchStrategies(project, options, progress); }));
}

void StrategySearchDialog::showResult(const Expected<engine::StrategySearchResult>& result) {
    m_table->setRowCount(0);
    m_bounds->clear();
    m_chart->clear();
    m_saveChart->setEnabled(false);
    if (!result) {
        m_result.reset();
        m_progress->setValue(0);
        m_status->setText(QString::fromStdString(result.message()));
        return;
    }
    m_result = *result;
    const engine::StrategySearchResult& r = *result;
    m_progress->setValue(r.cancelled ? m_progress->value() : 1000);
    QString status = QStringLiteral("%1 of %2 strategies fit %3 per device (%4 simulated)")
                         .arg(r.feasibleCount)
                         .arg(r.strategies.size())
                         .arg(formatBytes(static_cast<double>(r.capacity_bytes)))
                         .arg(r.simulations);
    if (r.cancelled) status = QStringLiteral("Cancelled: ") + status + QStringLiteral(" — the ranking covers what was simulated");
    if (r.truncated) status += QStringLiteral(" — stopped at the simulation cap");
    if (const engine::StrategyTrial* best = r.best())
        status += QStringLiteral("\nBest: %1, %2 tokens/s").arg(QString::fromStdString(best->config.label()), formatCount(best->tokens_per_s));
    if (const engine::StrategyTrial* own = r.current(); own && own->feasible() && r.best())
        status += QStringLiteral(" — the project's own (bold) is rank %1, %2 tokens/s")
                      .arg(own - r.strategies.data() + 1)
                      .arg(formatCount(own->tokens_per_s));
    else if (own)
        status += QStringLiteral(" — the project's own (bold): %1")
                      .arg(QString::fromStdString(std::string(engine::trialStatusName(own->status))).replace(QLatin1Char('_'), QLatin1Char(' ')));
    m_status->setText(status);
    QStringList bounds;
    for (const std::string& b : r.bounds) bounds << QStringLiteral("• ") + QString::fromStdString(b);
    m_bounds->setText(bounds.join(QLatin1Char('\n')));
    // Wrapped labels: the layout would squeeze them under the table's wish for height.
    for (QLabel* label : {m_status, m_bounds}) label->setMinimumHeight(label->heightForWidth(m_table->width()));
    layout()->activate();

    m_table->setRowCount(static_cast<int>(r.strategies.size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const engine::StrategyTrial& t = r.strategies[static_cast<std::size_t>(row)];
        const engine::StrategyConfig& c = t.config;
        m_table->setItem(row, kRank, cell(t.feasible() ? QString::number(row + 1) : QString()));
        m_table->setItem(row, kDp, cell(QString::number(c.dataParallel)));
        m_table->setItem(row, kTp, cell(QString::number(c.tensorParallel) + (c.sequenceParallel ? QStringLiteral(" +SP") : QString())));
        m_table->setItem(row, kPp, cell(QString::number(c.pipelineStages)));
        m_table->setItem(row, kSchedule, cell(c.pipelineStages > 1 ? QString::fromStdString(c.scheduleName()) : QString(), false));
        m_table->setItem(row, kMicro, cell(QString::number(c.microBatches)));
        m_table->setItem(row, kZero, cell(QString::number(c.zeroStage)));
        m_table->setItem(row, kRecompute, cell(QString::fromStdString(c.activationCheckpointing), false));
        m_table->setItem(row, kStep, cell(t.simulated() ? formatDuration(t.step_time_ms * 1e6) : QString()));
        m_table->setItem(row, kTokens, cell(t.simulated() ? formatCount(t.tokens_per_s) : QString()));
        m_table->setItem(row, kPeak, cell(t.simulated() ? formatBytes(static_cast<double>(t.peak_bytes)) : QString()));
        QString statusText = QString::fromStdString(std::string(engine::trialStatusName(t.status))).replace(QLatin1Char('_'), QLatin1Char(' '));
        m_table->setItem(row, kStatus, cell(statusText, false));
        const QString tip = QString::fromStdString(c.label() + (t.current ? " (the project's own)" : "") + (t.reason.empty() ? "" : "\n" + t.reason));
        for (int col = 0; col < kColumns; ++col) {
            QTableWidgetItem* item = m_table->item(row, col);
            item->setToolTip(tip);
            if (t.current) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            // Only ranked strategies can be applied; the rest are shown greyed.
            if (!t.feasible()) item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
        }
    }
    m_chart->setResult(r);
    m_saveChart->setEnabled(r.simulations > 0);
    if (r.feasibleCount > 0) m_table->selectRow(0);
    updateApply();
}

void StrategySearchDialog::selectStrategy(std::size_t index) {
    if (!m_result || index >= m_result->strategies.size()) return;
    const engine::StrategyTrial& t = m_result->strategies[index];
    if (t.feasible()) {
        m_table->selectRow(static_cast<int>(index));
        m_table->scrollToItem(m_table->item(static_cast<int>(index), 0));
        return;
    }
    // Rows that do not fit cannot be selected (nor applied): show it, say why.
    m_table->scrollToItem(m_table->item(static_cast<int>(index), 0));
    m_status->setText(QStringLiteral("%1 does not fit: %2").arg(QString::fromStdString(t.config.label()), QString::fromStdString(t.reason)));
}

bool StrategySearchDialog::saveChart(const QString& file) { return m_result && m_result->simulations > 0 && m_chart->savePng(file); }

void StrategySearchDialog::updateApply() {
    const int row = m_table->currentRow();
    m_chart->setSelected(row >= 0 && !m_table->selectedItems().isEmpty() ? std::optional<std::size_t>(static_cast<std::size_t>(row)) : std::nullopt);
    const bool ok = !running() && m_result && row >= 0 && row < m_result->feasibleCount && !m_table->selectedItems().isEmpty();
    m_apply->setEnabled(ok);
}

bool StrategySearchDialog::apply() {
    const int row = m_table->currentRow();
    if (!m_result || row < 0 || row >= m_result->feasibleCount || m_table->selectedItems().isEmpty()) return false;
    emit applyRequested(m_result->strategies[static_cast<std::size_t>(row)].config);
    m_status->setText(QStringLiteral("Applied %1 to the project").arg(QString::fromStdString(m_result->strategies[static_cast<std::size_t>(row)].config.label())));
    return true;
}

}  // namespace npu::views
