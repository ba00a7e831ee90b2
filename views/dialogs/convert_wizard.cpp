#include "views/dialogs/convert_wizard.h"

#include "engine/npuom/offline_model.h"
#include "views/dialogs/conversion_report_panel.h"
#include "views/project/project_validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QWizardPage>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>

namespace npu::views {

namespace {

// The first page: Next is refused, with the reason under the path, while the model path
// is empty or does not read as an ONNX model (not three pages later at conversion).
class ModelPage : public QWizardPage {
public:
    std::function<bool()> check;
    bool validatePage() override { return !check || check(); }
};

// The last page: conversion runs when it is entered and it is complete only when done.
class ConvertPage : public QWizardPage {
public:
    std::function<bool()> isDone;
    std::function<void()> onEnter;
    bool isComplete() const override { return isDone && isDone(); }
    void initializePage() override {
        if (onEnter) onEnter();
    }
};

QString dimsText(const engine::OnnxInputInfo& in) {
    QStringList parts;
    for (size_t i = 0; i < in.shape.size(); ++i)
        parts << (in.shape[i] >= 0 ? QString::number(in.shape[i])
                                   : (in.symbolicDims[i].empty() ? QStringLiteral("?") : QString::fromStdString(in.symbolicDims[i])));
    return parts.join(QLatin1Char(','));
}

}  // namespace

ConvertWizard::ConvertWizard(QWidget* parent) : QWizard(parent), m_inputs(new QStandardItemModel(this)) {
    setWindowTitle(tr("Convert Model"));
    setWizardStyle(QWizard::ClassicStyle);
    resize(760, 560);

    // Page 1: the model file.
    auto* filePage = new ModelPage;
    filePage->setTitle(tr("ONNX model"));
    filePage->setSubTitle(tr("Choose the model to convert to an NPU offline model (.npuom)."));
    m_path = new QLineEdit(filePage);
    auto* browse = new QPushButton(tr("Browse..."), filePage);
    m_modelInfo = new QLabel(filePage);
    m_modelInfo->setWordWrap(true);
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    row->addWidget(browse);
    auto* fileLayout = new QVBoxLayout(filePage);
    fileLayout->addLayout(row);
    fileLayout->addWidget(m_modelInfo);
    fileLayout->addStretch();
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("ONNX model"), m_path->text(), tr("ONNX models (*.onnx);;All files (*)"));
        if (!f.isEmpty()) setModelPath(f);
    });
    connect(m_path, &QLineEdit::editingFinished, this, &ConvertWizard::inspectModel);
    filePage->check = [this] {
        const QString problem = modelProblem();
        if (!problem.isEmpty())
            m_modelInfo->setText(QStringLiteral("<span style='color:#c00'>%1</span>").arg(problem.toHtmlEscaped()));
        return problem.isEmpty();
    };
    addPage(filePage);

    // Page 2: inputs and their dynamic dimensions.
    auto* inputsPage = new QWizardPage(this);
    inputsPage->setTitle(tr("Inputs"));
    inputsPage->setSubTitle(tr("Fill the dynamic dimensions (named ones such as batch or seq) with numbers."));
    auto* table = new QTableView(inputsPage);
    table->setModel(m_inputs);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    auto* inputsLayout = new QVBoxLayout(inputsPage);
    inputsLayout->addWidget(table);
    addPage(inputsPage);

    // Page 3: target and output.
    auto* targetPage = new QWizardPage(this);
    targetPage->setTitle(tr("Target"));
    m_device = new QComboBox(targetPage);
    m_device->setEditable(true);
    for (const std::string& name : deviceProfileNames()) m_device->addItem(QString::fromStdString(name));
    m_precision = new QComboBox(targetPage);
    m_precision->addItems({QStringLiteral("model"), QStringLiteral("fp32"), QStringLiteral("fp16"), QStringLiteral("bf16")});
    m_strict = new QCheckBox(tr("Fail on unsupported ops (strict)"), targetPage);
    m_output = new QLineEdit(targetPage);
    auto* form = new QFormLayout(targetPage);
    form->addRow(tr("Target device"), m_device);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(QString(), m_strict);
    form->addRow(tr("Output (.npuom)"), m_output);
    addPage(targetPage);

    // Page 4: conversion and the report.
    auto* page = new ConvertPage;
    page->setTitle(tr("Conversion"));
    m_progress = new QProgressBar(page);
    m_progress->setRange(0, 1000);
    m_stage = new QLabel(page);
    m_cancel = new QPushButton(tr("Cancel conversion"), page);
    m_report = new ConversionReportPanel(page);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto* convertLayout = new QVBoxLayout(page);
    convertLayout->addLayout(progressRow);
    convertLayout->addWidget(m_stage);
    convertLayout->addWidget(m_report, 1);
    page->isDone = [this] { return m_done && m_result != nullptr; };
    page->onEnter = [this] { startConversion(); };
    connect(m_cancel, &QPushButton::clicked, this, &ConvertWizard::cancelConversion);
    m_convertPageId = addPage(page);

    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &ConvertWizard::onFinished);
}

ConvertWizard::~ConvertWizard() {
    cancelConversion();
    m_watcher.waitForFinished();
}

void ConvertWizard::setModelPath(const QString& path) {
    m_path->setText(path);
    inspectModel();
}

QString ConvertWizard::modelPath() const { return m_path->text(); }

void ConvertWizard::setOutputFolder(const QString& folder) { m_outputFolder = folder; }

QString ConvertWizard::outputFolder() const {
    if (!m_outputFolder.isEmpty()) return m_outputFolder;
    // No project open: the application's own data folder (created at conversion).
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/models");
}

QString ConvertWizard::modelInfoText() const { return m_modelInfo->text(); }

QString ConvertWizard::modelProblem() const {
    const QString path = m_path->text().trimmed();
    if (path.isEmpty()) return tr("Choose the ONNX model to convert (Browse...).");
    const QFileInfo info(path);
    if (!info.exists()) return tr("%1: no such file").arg(path);
    if (!info.isFile()) return tr("%1: not a file").arg(path);
    auto summary = engine::inspectOnnxModel(path.toStdString());
    if (!summary) return QString::fromStdString(summary.message());
    return {};
}
void ConvertWizard::setOutputPath(const QString& path) { m_output->setText(path); }
QString ConvertWizard::outputPath() const { return m_output->text(); }
void ConvertWizard::setPrecision(const QString& precision) { m_precision->setCurrentText(precision); }
void ConvertWizard::setDevice(const QString& device) { m_device->setCurrentText(device); }

void ConvertWizard::inspectModel() {
    m_inputs->clear();
    m_inputs->setHorizontalHeaderLabels({tr("Input"), tr("Type"), tr("Model shape"), tr("Shape to convert with")});
    const QString path = m_path->text();
    if (path.isEmpty()) return;
    // Reading the inputs parses the protobuf only (no inference), fast enough for the GUI thread.
    auto summary = engine::inspectOnnxModel(path.toStdString());
    if (!summary) {
        m_modelInfo->setText(QStringLiteral("<span style='color:#c00'>%1</span>").arg(QString::fromStdString(summary.message()).toHtmlEscaped()));
        return;
    }
    m_modelInfo->setText(tr("%1, opset %2, %3 data inputs")
                             .arg(QString::fromStdString(summary->producer))
                             .arg(summary->opset)
                             .arg(summary->inputs.size()));
    for (const auto& in : summary->inputs) {
        auto* name = new QStandardItem(QString::fromStdString(in.name));
        const auto dt = engine::dtypeName(in.dtype);
        auto* type = new QStandardItem(QString::fromUtf8(dt.data(), static_cast<int>(dt.size())));
        auto* model = new QStandardItem(QStringLiteral("[") + dimsText(in) + QStringLiteral("]"));
        QStringList fill;
        bool dynamic = false;
        for (auto d : in.shape) {
            dynamic = dynamic || d < 0;
            fill << (d >= 0 ? QString::number(d) : QStringLiteral("1"));  // batch 1 as the starting point
        }
        auto* shape = new QStandardItem(fill.join(QLatin1Char(',')));
        for (auto* item : {name, type, model}) item->setEditable(false);
        if (dynamic) shape->setBackground(QColor(0xFF, 0xF3, 0xC4));  // the cells the user should look at
        m_inputs->appendRow({name, type, model, shape});
    }
    // The default output follows the model chosen, in the output folder: never beside the
    // input, which may be a read-only or reference-data folder.
    if (m_output->text().isEmpty() || m_output->text() == m_defaultOutput) {
        m_defaultOutput = QDir(outputFolder()).filePath(QFileInfo(path).completeBaseName() + QStringLiteral(".npuom"));
        m_output->setText(m_defaultOutput);
    }
}

bool ConvertWizard::inputShapes(std::map<std::string, std::vector<std::int64_t>>& shapes, QString& error) const {
    for (int r = 0; r < m_inputs->rowCount(); ++r) {
        const QString name = m_inputs->item(r, 0)->text();
        auto spec = engine::parseInputShapeSpec((name + QLatin1Char(':') + m_inputs->item(r, 3)->text()).toStdString());
        if (!spec) {
            error = QString::fromStdString(spec.message());
            return false;
        }
        shapes[spec->first] = spec->second;
    }
    return true;
}

bool ConvertWizard::conversionRunning() const { return m_watcher.isRunning(); }

void ConvertWizard::startConversion() {
    if (m_watcher.isRunning()) return;
    m_done = false;
    m_result.reset();
    m_error.clear();
    engine::OnnxImportOptions options;
    QString shapeError;
    if (!inputShapes(options.inputShapes, shapeError)) {
        m_error = shapeError;
        m_stage->setText(QStringLiteral("<span style='color:#c00'>%1</span>").arg(shapeError.toHtmlEscaped()));
        emit conversionFinished(false);
        return;
    }
    if (auto p = engine::parseDType(m_precision->currentText().toStdString())) options.targetPrecision = *p;
    options.targetDevice = m_device->currentText().toStdString();
    options.strict = m_strict->isChecked();
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_stage->setText(tr("converting..."));

    // Progress crosses to the GUI thread through a queued call; the library stays Qt-free.
    QPointer<QProgressBar> bar = m_progress;
    QPointer<QLabel> stage = m_stage;
    auto cancel = m_cancelFlag;
    const std::string model = m_path->text().toStdString();
    const std::string out = m_output->text().toStdString();
    m_watcher.setFuture(QtConcurrent::run([=]() -> Outcome {
        npu::Progress progress;
        progress.cancel = cancel.get();
        progress.report = [bar, stage](double fraction, std::string_view what) {
            const QString text = QString::fromUtf8(what.data(), static_cast<int>(what.size()));
            QMetaObject::invokeMethod(bar, [bar, stage, fraction, text] {
                if (bar) bar->setValue(static_cast<int>(fraction * 1000));
                if (stage) stage->setText(text);
            }, Qt::QueuedConnection);
        };
        Outcome outcome;
        auto r = engine::importOnnxForwardGraph(model, options, progress);
        if (!r) {
            outcome.error = QString::fromStdString(r.message());
            return outcome;
        }
        outcome.result = std::make_shared<engine::ConversionResult>(std::move(r).value());
        if (cancel->load()) {
            outcome.error = QObject::tr("conversion cancelled");
            return outcome;
        }
        if (!out.empty()) {
            std::error_code ec;  // the default folder may not exist yet; a failure shows in the save's message
            std::filesystem::create_directories(std::filesystem::path(out).parent_path(), ec);
            auto saved = engine::saveOfflineModel(*outcome.result, out);
            if (!saved) outcome.error = QString::fromStdString(saved.message());
            outcome.saved = saved.ok();
        }
        return outcome;
    }));
}

void ConvertWizard::cancelConversion() {
    if (m_cancelFlag) m_cancelFlag->store(true);
}

void ConvertWizard::onFinished() {
    const Outcome outcome = m_watcher.result();
    m_done = true;
    m_cancel->setEnabled(false);
    m_error = outcome.error;
    if (outcome.result) m_report->setReport(outcome.result->report);
    if (!outcome.error.isEmpty() || !outcome.result) {
        m_stage->setText(QStringLiteral("<span style='color:#c00'>%1</span>").arg(outcome.error.toHtmlEscaped()));
        emit conversionFinished(false);
        emit currentPage()->completeChanged();
        return;
    }
    m_result = outcome.result;
    m_progress->setValue(1000);
    m_stage->setText(outcome.saved ? tr("wrote %1").arg(m_output->text()) : tr("converted (not saved: no output path)"));
    if (auto* p = page(m_convertPageId)) emit p->completeChanged();
    if (outcome.saved) emit converted(m_output->text());
    emit conversionFinished(true);
}

}  // namespace npu::views
