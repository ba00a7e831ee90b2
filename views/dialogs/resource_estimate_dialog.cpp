#include "views/dialogs/resource_estimate_dialog.h"

#include "views/common/units.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
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
    m_trials = new QTableWidget(0, 5, this);
    m_trials->setHorizontalHeaderLabels({QStringLiteral("Devices"), QStringLiteral("Fits"), QStringLiteral("Peak per device"),
                                         QStringLiteral("Step time"), QStringLiteral("Strategy")});
    m_trials->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_trials->horizontalHeader()->setStretchLastSection(true);
    m_trials->verticalHeader()->hide();
    m_trials->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_assumptions = new QListWidget(this);
    m_assumptions->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_run, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_result);
    layout->addWidget(new QLabel(QStringLiteral("Device counts tried"), this));
    layout->addWidget(m_trials, 1);
    layout->addWidget(new QLabel(QStringLiteral("Assumptions"), this));
    layout->addWidget(m_assumptions, 1);
    layout->addWidget(buttons);
    resize(640, 560);

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
    m_run->setEnabled(false);
    m_status->setText(QStringLiteral("Simulating one rank per device count…"));
    m_watcher->setFuture(QtConcurrent::run([project = m_project, request] { return engine::estimateResources(project, request); }));
}

void ResourceEstimateDialog::showResult(const Expected<engine::ResourceEstimate>& result) {
    m_trials->setRowCount(0);
    m_assumptions->clear();
    if (!result) {
        m_estimate.reset();
        m_result->clear();
        m_status->setText(QString::fromStdString(result.message()));
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
    for (const engine::DeviceCountTrial& t : e.trials) {
        const int row = m_trials->rowCount();
        m_trials->insertRow(row);
        m_trials->setItem(row, 0, new QTableWidgetItem(QString::number(t.devices)));
        m_trials->setItem(row, 1, new QTableWidgetItem(t.fits ? QStringLiteral("yes") : QStringLiteral("no")));
        m_trials->setItem(row, 2, new QTableWidgetItem(formatBytes(static_cast<double>(t.peak_bytes))));
        m_trials->setItem(row, 3, new QTableWidgetItem(formatDuration(t.step_time_ms * 1e6)));
        m_trials->setItem(row, 4, new QTableWidgetItem(QString::fromStdString(t.strategy)));
    }
    for (const std::string& a : e.assumptions) m_assumptions->addItem(QString::fromStdString(a));
}

}  // namespace npu::views
