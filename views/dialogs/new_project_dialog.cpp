#include "views/dialogs/new_project_dialog.h"

#include "engine/driver/simulate_project.h"
#include "engine/precision/precision_level.h"
#include "views/project/project_validation.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <filesystem>

namespace npu::views {

namespace {

QSpinBox* spin(int min, int max, int value, const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(min, max);
    s->setValue(value);
    s->setToolTip(tip);
    s->setGroupSeparatorShown(true);
    return s;
}

struct Preset {
    const char* id;
    const char* label;
    const char* family;
    int hidden, ffn, layers, heads, kvHeads, vocab, maxSeq;
    int depth, classes, image;
    int batch, seq;
};

// Sizes from the models' papers/configs: LLaMA-7B (Touvron et al. 2023), the small
// LLaMA of ../shared/data/hardware/h200_llama_small_training.json, GPT-2 small and
// BERT-base (their published configs), ResNet-50 (He et al. 2015).
const Preset kPresets[] = {
    {"llama-7b", "LLaMA 7B", "llama", 4096, 11008, 32, 32, 32, 32000, 4096, 50, 1000, 224, 1, 2048},
    {"llama-small", "LLaMA small (calibration, 168M)", "llama", 1024, 2816, 8, 16, 16, 32000, 4096, 50, 1000, 224, 8, 1024},
    {"gpt2", "GPT-2 small (124M)", "gpt", 768, 3072, 12, 12, 12, 50257, 1024, 50, 1000, 224, 8, 1024},
    {"bert-base", "BERT base (110M)", "bert", 768, 3072, 12, 12, 12, 30522, 512, 50, 1000, 224, 32, 512},
    {"resnet50", "ResNet-50", "resnet", 4096, 11008, 32, 32, 32, 32000, 4096, 50, 1000, 224, 64, 1},
};

}  // namespace

NewProjectDialog::NewProjectDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("New Project"));
    m_name = new QLineEdit(QStringLiteral("my-model"), this);
    m_location = new QLineEdit(QDir::homePath() + QStringLiteral("/npustudio-projects"), this);
    auto* browse = new QPushButton(QStringLiteral("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Project location"), m_location->text());
        if (!dir.isEmpty()) m_location->setText(dir);
    });
    auto* locationRow = new QHBoxLayout;
    locationRow->addWidget(m_location, 1);
    locationRow->addWidget(browse);

    m_preset = new QComboBox(this);
    m_preset->addItem(QStringLiteral("Custom"), QString());
    for (const Preset& p : kPresets) m_preset->addItem(QString::fromLatin1(p.label), QString::fromLatin1(p.id));
    m_family = new QComboBox(this);
    m_family->addItem(QStringLiteral("LLaMA (RMSNorm, rotary, SwiGLU)"), QStringLiteral("llama"));
    m_family->addItem(QStringLiteral("GPT (GPT-2 style)"), QStringLiteral("gpt"));
    m_family->addItem(QStringLiteral("BERT (encoder)"), QStringLiteral("bert"));
    m_family->addItem(QStringLiteral("ResNet"), QStringLiteral("resnet"));
    // A model File > Convert Model… wrote (or any ONNX file): its graph, not a zoo family.
    m_family->addItem(QStringLiteral("From converted model (.npuom / .onnx)"), QStringLiteral("file"));

    auto* lm = new QWidget(this);
    auto* lmForm = new QFormLayout(lm);
    lmForm->setContentsMargins(0, 0, 0, 0);
    m_hidden = spin(8, 65536, 4096, QStringLiteral("Hidden size (d_model)"));
    m_ffn = spin(8, 262144, 11008, QStringLiteral("Feed-forward (MLP) inner size"));
    m_layers = spin(1, 1024, 32, QStringLiteral("Transformer layers"));
    m_heads = spin(1, 1024, 32, QStringLiteral("Attention heads"));
    m_kvHeads = spin(1, 1024, 32, QStringLiteral("Key/value heads (grouped-query attention when fewer than heads)"));
    m_vocab = spin(2, 1000000, 32000, QStringLiteral("Vocabulary size"));
    m_maxSeq = spin(1, 1048576, 4096, QStringLiteral("Maximum sequence length (position embeddings for GPT/BERT)"));
    lmForm->addRow(QStringLiteral("Hidden"), m_hidden);
    lmForm->addRow(QStringLiteral("FFN"), m_ffn);
    lmForm->addRow(QStringLiteral("Layers"), m_layers);
    lmForm->addRow(QStringLiteral("Heads"), m_heads);
    lmForm->addRow(QStringLiteral("KV heads"), m_kvHeads);
    lmForm->addRow(QStringLiteral("Vocabulary"), m_vocab);
    lmForm->addRow(QStringLiteral("Max sequence"), m_maxSeq);
    auto* vision = new QWidget(this);
    auto* visionForm = new QFormLayout(vision);
    visionForm->setContentsMargins(0, 0, 0, 0);
    m_depth = spin(18, 152, 50, QStringLiteral("ResNet depth: 18, 34, 50, 101 or 152"));
    m_classes = spin(1, 100000, 1000, QStringLiteral("Classifier outputs"));
    m_image = spin(32, 2048, 224, QStringLiteral("Input image side in pixels"));
    visionForm->addRow(QStringLiteral("Depth"), m_depth);
    visionForm->addRow(QStringLiteral("Classes"), m_classes);
    visionForm->addRow(QStringLiteral("Image size"), m_image);
    auto* fromFile = new QWidget(this);
    auto* fileRow = new QHBoxLayout(fromFile);
    fileRow->setContentsMargins(0, 0, 0, 0);
    m_modelFile = new QLineEdit(this);
    m_modelFile->setPlaceholderText(QStringLiteral("a .npuom from File > Convert Model…, or an .onnx model"));
    auto* browseModel = new QPushButton(QStringLiteral("Browse…"), this);
    connect(browseModel, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Converted model"), m_modelFile->text(),
                                                          QStringLiteral("Models (*.npuom *.onnx);;All files (*)"));
        if (!file.isEmpty()) m_modelFile->setText(file);
    });
    fileRow->addWidget(m_modelFile, 1);
    fileRow->addWidget(browseModel);
    m_sizes = new QStackedWidget(this);
    m_sizes->addWidget(lm);
    m_sizes->addWidget(vision);
    m_sizes->addWidget(fromFile);

    // The device profiles present (resources/devices); a typed name or path is checked
    // against them by validate() (views/project/project_validation).
    m_device = new QComboBox(this);
    m_device->setEditable(true);
    m_device->setInsertPolicy(QComboBox::NoInsert);
    m_device->setToolTip(QStringLiteral("A profile from resources/devices or a path to a device JSON"));
    for (const std::string& name : deviceProfileNames()) m_device->addItem(QString::fromStdString(name));
    // The sample projects' device first: what a new user most likely has.
    if (const int h200 = m_device->findText(QStringLiteral("h200")); h200 >= 0) m_device->setCurrentIndex(h200);
    m_batch = spin(1, 1 << 20, 8, QStringLiteral("Global batch size per step (samples)"));
    m_seq = spin(1, 1 << 20, 1024, QStringLiteral("Sequence length in tokens (ignored by vision models)"));
    m_precision = new QComboBox(this);
    for (const std::string& name : engine::precisionNames()) {
        const auto level = engine::parsePrecision(name);
        m_precision->addItem(QString::fromStdString(name));
        m_precision->setItemData(m_precision->count() - 1, QString::fromLatin1(engine::precisionLevel(*level).data()), Qt::ToolTipRole);
    }
    m_precision->setToolTip(QStringLiteral("O0 fp32/tf32; O1 autocast (-amp); O2 half model with fp32 master weights (-o2); "
                                           "O3 pure half weights, gradients and optimizer states (bf16, fp16)"));

    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Name"), m_name);
    form->addRow(QStringLiteral("Location"), locationRow);
    form->addRow(QStringLiteral("Preset"), m_preset);
    form->addRow(QStringLiteral("Model"), m_family);
    form->addRow(QString(), m_sizes);
    form->addRow(QStringLiteral("Device"), m_device);
    form->addRow(QStringLiteral("Batch"), m_batch);
    form->addRow(QStringLiteral("Sequence length"), m_seq);
    form->addRow(QStringLiteral("Precision"), m_precision);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &NewProjectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewProjectDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_family, &QComboBox::currentIndexChanged, this, &NewProjectDialog::familyChanged);
    connect(m_preset, &QComboBox::currentIndexChanged, this,
            [this] { if (!m_preset->currentData().toString().isEmpty()) applyPreset(m_preset->currentData().toString()); });
    applyPreset(QStringLiteral("llama-small"));

    // Inline validation: every edit re-checks (debounced), OK is off while it fails.
    m_check = new QTimer(this);
    m_check->setSingleShot(true);
    m_check->setInterval(150);
    connect(m_check, &QTimer::timeout, this, &NewProjectDialog::updateValidation);
    for (QSpinBox* s : {m_hidden, m_ffn, m_layers, m_heads, m_kvHeads, m_vocab, m_maxSeq, m_depth, m_classes, m_image,
                        m_batch, m_seq})
        connect(s, &QSpinBox::valueChanged, m_check, qOverload<>(&QTimer::start));
    // Edited sizes are no longer the preset's: the box says "Custom" (applyPreset sets
    // them without this, m_applyingPreset).
    for (QSpinBox* s : {m_hidden, m_ffn, m_layers, m_heads, m_kvHeads, m_vocab, m_maxSeq, m_depth, m_classes, m_image})
        connect(s, &QSpinBox::valueChanged, this, &NewProjectDialog::sizesEdited);
    connect(m_family, &QComboBox::currentIndexChanged, this, &NewProjectDialog::sizesEdited);
    for (QComboBox* c : {m_family, m_device, m_precision})
        connect(c, &QComboBox::currentTextChanged, m_check, qOverload<>(&QTimer::start));
    for (QLineEdit* e : {m_name, m_location, m_modelFile}) connect(e, &QLineEdit::textChanged, m_check, qOverload<>(&QTimer::start));
    updateValidation();
}

void NewProjectDialog::updateValidation() {
    m_check->stop();
    const Status st = validate();
    m_error->setText(st ? QString() : QString::fromStdString(st.message()));
    m_ok->setEnabled(st.ok());
}

void NewProjectDialog::familyChanged() {
    const QString f = m_family->currentData().toString();
    m_sizes->setCurrentIndex(f == QStringLiteral("resnet") ? 1 : f == QStringLiteral("file") ? 2 : 0);
    const bool llama = f == QStringLiteral("llama");
    m_kvHeads->setEnabled(llama);
    m_ffn->setEnabled(llama);
    m_seq->setEnabled(f != QStringLiteral("resnet"));
}

void NewProjectDialog::setLocation(const QString& folder) { m_location->setText(folder); }
void NewProjectDialog::setName(const QString& name) { m_name->setText(name); }
void NewProjectDialog::setDevice(const QString& device) { m_device->setCurrentText(device); }
void NewProjectDialog::setBatch(int batch) { m_batch->setValue(batch); }
void NewProjectDialog::setPrecision(const QString& precision) { m_precision->setCurrentText(precision); }
void NewProjectDialog::setModelFile(const QString& file) {
    m_family->setCurrentIndex(m_family->findData(QStringLiteral("file")));
    m_modelFile->setText(file);
}

void NewProjectDialog::sizesEdited() {
    if (m_applyingPreset) return;
    const QSignalBlocker block(m_preset);
    m_preset->setCurrentIndex(m_preset->findData(QString()));
}

void NewProjectDialog::applyPreset(const QString& id) {
    m_applyingPreset = true;
    for (const Preset& p : kPresets) {
        if (id != QString::fromLatin1(p.id)) continue;
        m_family->setCurrentIndex(m_family->findData(QString::fromLatin1(p.family)));
        m_hidden->setValue(p.hidden);
        m_ffn->setValue(p.ffn);
        m_layers->setValue(p.layers);
        m_heads->setValue(p.heads);
        m_kvHeads->setValue(p.kvHeads);
        m_vocab->setValue(p.vocab);
        m_maxSeq->setValue(p.maxSeq);
        m_depth->setValue(p.depth);
        m_classes->setValue(p.classes);
        m_image->setValue(p.image);
        m_batch->setValue(p.batch);
        m_seq->setValue(p.seq);
        const QSignalBlocker block(m_preset);
        m_preset->setCurrentIndex(m_preset->findData(id));
    }
    m_applyingPreset = false;
    familyChanged();
}

engine::Project NewProjectDialog::project() const {
    engine::Project p;
    p.name = m_name->text().trimmed().toStdString();
    const QString family = m_family->currentData().toString();
    if (family == QStringLiteral("file")) {
        // The file as given, made absolute: the project may live elsewhere.
        const QString file = m_modelFile->text().trimmed();
        const std::string path = file.isEmpty() ? std::string() : QFileInfo(file).absoluteFilePath().toStdString();
        if (file.endsWith(QStringLiteral(".onnx"), Qt::CaseInsensitive)) p.model.onnx = path;
        else p.model.npuom = path;
    } else {
        p.model.zoo = family.toStdString();
    }
    if (family == QStringLiteral("file")) {
        // The graph comes from the file; no zoo sizes.
    } else if (family == QStringLiteral("resnet")) {
        p.model.config = {{"depth", m_depth->value()}, {"classes", m_classes->value()}, {"image", m_image->value()}};
    } else {
        p.model.config = {{"hidden", m_hidden->value()}, {"layers", m_layers->value()}, {"heads", m_heads->value()},
                          {"vocab", m_vocab->value()}};
        p.model.config["max_seq"] = m_maxSeq->value();
        if (family == QStringLiteral("llama")) {
            p.model.config["ffn"] = m_ffn->value();
            p.model.config["kv_heads"] = m_kvHeads->value();
            p.model.config["tie_embeddings"] = false;
        }  // GPT and BERT use the usual 4x hidden MLP; the format has no ffn key for them.
    }
    p.device = m_device->currentText().trimmed().toStdString();
    p.training.batch = m_batch->value();
    p.training.seq = family == QStringLiteral("resnet") ? 1 : m_seq->value();
    p.training.precision = m_precision->currentText().toStdString();
    p.file = projectFile().toStdString();
    return p;
}

QString NewProjectDialog::projectFile() const {
    return QDir(m_location->text().trimmed()).filePath(m_name->text().trimmed() + QStringLiteral("/project.json"));
}

Status NewProjectDialog::validate() const {
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) return makeError("name: enter a project name", ErrorCode::bad_input);
    if (name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')))
        return makeError("name: the project's folder name cannot contain slashes", ErrorCode::bad_input);
    if (m_location->text().trimmed().isEmpty()) return makeError("location: expected a folder");
    if (m_family->currentData().toString() == QStringLiteral("file")) {
        const QString file = m_modelFile->text().trimmed();
        if (file.isEmpty()) return makeError("model: choose a converted model (.npuom) or an ONNX file", ErrorCode::bad_input);
        if (!QFileInfo(file).isFile()) return makeError(file.toStdString() + ": no such file (expected a .npuom or .onnx model)", ErrorCode::bad_input);
    }
    const engine::Project p = project();
    if (QFileInfo::exists(projectFile()))
        return makeError(projectFile().toStdString() + ": a project already exists there");
    // The checks a load and a simulation make: the project parser, then the model builder
    // (heads dividing hidden, sequence within max_seq, ...), so OK cannot write a project
    // whose simulation then fails on its model.
    if (auto check = validateProject(p); !check) return check.error();
    return {};
}

Status NewProjectDialog::writeProject() const {
    if (Status st = validate(); !st) return st;
    const engine::Project p = project();
    std::error_code ec;
    std::filesystem::create_directories(p.folder(), ec);
    if (ec) return makeError(p.folder().string() + ": cannot create the folder: " + ec.message());
    return engine::saveProject(p, p.file);
}

QString NewProjectDialog::errorText() const { return m_error->text(); }
QString NewProjectDialog::presetText() const { return m_preset->currentText(); }

QStringList NewProjectDialog::deviceChoices() const {
    QStringList items;
    for (int i = 0; i < m_device->count(); ++i) items << m_device->itemText(i);
    return items;
}
bool NewProjectDialog::okEnabled() const { return m_ok->isEnabled(); }

void NewProjectDialog::accept() {
    if (Status st = writeProject(); !st) {
        m_error->setText(QString::fromStdString(st.message()));
        return;
    }
    QDialog::accept();
}

}  // namespace npu::views
