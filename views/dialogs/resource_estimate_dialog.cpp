#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/dialogs/resource_estimate_dialog.h"

#include "views/common/units.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace npu::views {

namespace {

// "1e9", "2000000000", "2.5e10": a positive number of tokens, or nothing.
std::optional<double> parseTokens(const QString& text) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok && v > 0 ? std::optional<double>(v) : std::nullopt;
}

QString hours(double seconds) {
    if (seconds < 3600) return formatDuration(seconds * 1e9);
    if (seconds < 3 * 86400) return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 1);
    return QStringLiteral("%1 days").arg(seconds / 86400, 0, 'f', 1);
}

}  // namespace

std::string ResourceEstimateDialog::modelName() const {
    const engine::ModelSource& m = m_project.model;
    return !m.zoo.empty() ? m.zoo : !m.onnx.empty() ? m.onnx : m.npuom;
}

ResourceEstimateDialog::ResourceEstimateDialog(engine::Project project, QWidget* parent)
    : QDialog(parent), m_project(std::move(project)) {
    setWindowTitle(QStringLiteral("Estimate Resources — %1").arg(QString::fromStdString(m_project.name)));
    auto* form = new QFormLayout;
    m_tokens = new QLineEdit(QStringLiteral("1e9"), this);
    m_tokens->setToolTip(QStringLiteral("Training tokens to process, e.g. 1e9 or 2000000000"));
    form->addRow(QStringLiteral("Training tokens"), m_tokens);
    m_devicesMax = new QSpinBox(this);
    m_devicesMax->setRange(1, 1 << 20);
    m_devicesMax->setValue(1024);
    m_devicesMax->setToolTip(QStringLiteral("Device counts tried: powers of two up to this"));
    form->addRow(QStringLiteral("Devices at most"), m_devicesMax);
    m_price = new QDoubleSpinBox(this);
    m_price->setRange(0, 1000);
    m_price->setDecimals(2);
    m_price->setSpecialValueText(QStringLiteral("not set (cost in device-hours)"));
    m_price->setToolTip(QStringLiteral("Price of one device for one hour; the Cost column and the chart multiply the device-hours by it"));
    form->addRow(QStringLiteral("Price per device-hour"), m_price);
    form->addRow(QStringLiteral("Model · mode"),
                 new QLabel(QString::fromStdString(modelName() +
                                                   " · " + m_project.training.mode.name + " · " + m_project.training.precision +
                                                   " on " + m_project.device),
                            this));

    m_run = new QPushButton(QStringLiteral("Estimate"), this);
    m_run->setDefault(true);
    connect(m_run, &QPushButton::clicked, this, &ResourceEstimateDialog::start);
    m_status = new QLabel(this);
    m_result = new QLabel(this);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_trials = new QTableWidget(0, 8, this);
    m_trials->setHorizontalHeaderLabels({QStringLiteral("Devices"), QStringLiteral("Fits"), QStringLiteral("Peak per device"),
                                         QStringLiteral("Step time"), QStringLiteral("Time for the tokens"), QStringLiteral("Device-hours"),
                                         QStringLiteral("Cost"), QStringLiteral("Strategy")});
    m_trials->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_trials->horizontalHeader()->setStretchLastSection(true);
    m_trials->verticalHeader()->hide();
    m_trials->setWordWrap(false);  // one line per count: eleven of them up to 1024 devices
    m_trials->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_trials->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Step time and days against the device count (log2 axis), the cost on the right axis.
    m_chart = new QCustomPlot(this);
    m_chart->setMinimumHeight(200);
    m_chart->xAxis->setLabel(QStringLiteral("devices"));
    m_chart->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_chart->xAxis->ticker().dynamicCast<QCPAxisTickerLog>()->setLogBase(2);
    m_chart->yAxis->setLabel(QStringLiteral("days"));
    m_chart->yAxis2->setVisible(true);
    m_chart->legend->setVisible(true);
    m_chart->legend->setFont(font());
    // The legend in a row above the plot, side by side: inside it covered the points.
    m_chart->plotLayout()->insertRow(0);
    m_chart->plotLayout()->addElement(0, 0, m_chart->legend);
    m_chart->plotLayout()->setRowStretchFactor(0, 0.001);
    m_chart->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_chart->legend->setBorderPen(Qt::NoPen);
    connect(m_price, &QDoubleSpinBox::valueChanged, this, [this] {
        fillTrials();
        plotTrials();
    });
    m_assumptions = new QListWidget(this);
    m_assumptions->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_run, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_result);
    layout->addWidget(new QLabel(QStringLiteral("Device counts tried (powers of two up to the maximum)"), this));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_trials);
    split->addWidget(m_chart);
    split->setSizes({150, 260});
    layout->addWidget(split, 2);
    layout->addWidget(new QLabel(QStringLiteral("Assumptions"), this));
    m_assumptions->setMaximumHeight(110);  // four lines; the table and the chart take the rest
    layout->addWidget(m_assumptions);
    layout->addWidget(buttons);
    resize(820, 680);

    m_watcher = new QFutureWatcher<Expected<engine::ResourceEstimate>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        showResult(m_watcher->result());
        m_run->setEnabled(true);
        emit finished();
    });
}

ResourceEstimateDialog::~ResourceEstimateDialog() {
    // The estimate holds its own copy of the project; waiting keeps its thread from
    // outliving the application at exit.
    m_watcher->waitForFinished();
}

void ResourceEstimateDialog::setTokens(const QString& tokens) { m_tokens->setText(tokens); }
void ResourceEstimateDialog::setDevicesMax(int devices) { m_devicesMax->setValue(devices); }
bool ResourceEstimateDialog::running() const { return m_watcher->isRunning(); }
QString ResourceEstimateDialog::errorText() const { return m_estimate ? QString() : m_status->text(); }

void ResourceEstimateDialog::start() {
    if (running()) return;
    const auto tokens = parseTokens(m_tokens->text());
    if (!tokens) {
        m_estimate.reset();
        m_status->setText(QStringLiteral("Training tokens: expected a positive number (e.g. 1e9), got \"%1\"").arg(m_tokens->text()));
        emit finished();
        return;
    }
    engine::EstimateRequest request;
    request.tokens = *tokens;
    request.devicesMax = m_devicesMax->value();
    request.everyCount = true;
    m_run->setEnabled(false);
    m_status->setText(QStringLiteral("Searching strategies on each device count…"));
    m_watcher->setFuture(QtConcurrent::run([project = m_project, request] { return engine::estimateResources(project, request); }));
}

void ResourceEstimateDialog::setPricePerDeviceHour(double price) { m_price->setValue(price); }

void ResourceEstimateDialog::fillTrials() {
    m_trials->setRowCount(0);
    if (!m_estimate) return;
    const double price = m_price->value();
    for (const engine::DeviceCountTrial& t : m_estimate->trials) {
        const int row = m_trials->rowCount();
        m_trials->insertRow(row);
        const QString none = QStringLiteral("—");
        const QStringList cells{QString::number(t.devices),
                                t.fits ? QStringLiteral("yes") : QStringLiteral("no"),
                                formatBytes(static_cast<double>(t.peak_bytes)),
                                formatDuration(t.step_time_ms * 1e6),
                                t.fits ? hours(t.seconds_for_tokens) : none,
                                t.fits ? QString::number(t.device_hours, 'f', 1) : none,
                                t.fits && price > 0 ? QString::number(t.device_hours * price, 'f', 2) : none,
                                QString::fromStdString(t.strategy)};
        for (int c = 0; c < cells.size(); ++c) m_trials->setItem(row, c, new QTableWidgetItem(cells[c]));
        m_trials->item(row, 7)->setToolTip(cells[7]);  // one line, elided: the whole strategy on hover
        if (t.fits && m_estimate->devices == t.devices)  // the answer: the fewest that fit
            for (int c = 0; c < cells.size(); ++c) {
                QFont bold = font();
                bold.setBold(true);
                m_trials->item(row, c)->setFont(bold);
            }
    }
}

void ResourceEstimateDialog::plotTrials() {
    m_chart->clearGraphs();
    const double price = m_price->value();
    m_chart->yAxis2->setLabel(price > 0 ? QStringLiteral("cost") : QStringLiteral("device-hours"));
    QVector<double> x, days, cost;
    if (m_estimate)
        for (const engine::DeviceCountTrial& t : m_estimate->trials)
            if (t.fits) {
                x << t.devices;
                days << t.seconds_for_tokens / 86400;
                cost << t.device_hours * (price > 0 ? price : 1);
            }
    QCPGraph* d = m_chart->addGraph(m_chart->xAxis, m_chart->yAxis);
    d->setName(QStringLiteral("days for the tokens"));
    d->setPen(QPen(QColor(41, 128, 185), 2));
    d->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    d->setData(x, days);
    QCPGraph* c = m_chart->addGraph(m_chart->xAxis, m_chart->yAxis2);
    c->setName(price > 0 ? QStringLiteral("cost") : QStringLiteral("device-hours"));
    c->setPen(QPen(QColor(211, 84, 0), 2, Qt::DashLine));
    c->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 6));
    c->setData(x, cost);
    if (!x.isEmpty()) {
        m_chart->xAxis->setRange(std::max(0.5, x.front() / 1.5), x.back() * 1.5);
        bool found = false;
        m_chart->yAxis->setRange(0, std::max(1e-9, d->data()->valueRange(found).upper * 1.15));
        m_chart->yAxis2->setRange(0, std::max(1e-9, c->data()->valueRange(found).upper * 1.15));
    }
    m_chart->replot();
}

void ResourceEstimateDialog::showResult(const Expected<engine::ResourceEstimate>& result) {
    m_trials->setRowCount(0);
    m_assumptions->clear();
    if (!result) {
        m_estimate.reset();
        m_result->clear();
        m_status->setText(QString::fromStdString(result.message()));
        plotTrials();
        return;
    }
    m_estimate = *result;
    const engine::ResourceEstimate& e = *result;
    m_status->setText(e.fits ? QStringLiteral("Fits on %1 device(s): %2").arg(e.devices).arg(QString::fromStdString(e.strategy))
                             : QStringLiteral("Does not fit on up to %1 devices").arg(m_devicesMax->value()));
    if (e.fits)
        m_result->setText(QStringLiteral("Memory per device: %1 of %2\nStep: %3 for %4 tokens\nFor %5 tokens: %6 (%7 device-hours)")
                              .arg(formatBytes(static_cast<double>(e.bytes_per_device)), formatBytes(static_cast<double>(e.capacity_bytes)),
                                   formatDuration(e.step_time_ms * 1e6), formatCount(e.tokens_per_step),
                                   formatCount(parseTokens(m_tokens->text()).value_or(0)), hours(e.seconds_for_tokens),
                                   QString::number(e.device_hours, 'f', 1)));
    else
        m_result->clear();
    fillTrials();
    plotTrials();
    for (const std::string& a : e.assumptions) m_assumptions->addItem(QString::fromStdString(a));
}

}  // namespace npu::views
