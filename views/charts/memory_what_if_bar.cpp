#include "views/charts/memory_what_if_bar.h"

#include "views/common/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QAbstractItemView>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

namespace npu::views {

namespace {
const QStringList kCheckpointing = {QStringLiteral("none"), QStringLiteral("selective"), QStringLiteral("memory_bound"), QStringLiteral("full")};
const QStringList kAllocators = {QStringLiteral("caching"), QStringLiteral("buddy"), QStringLiteral("static")};
}  // namespace

MemoryWhatIfBar::MemoryWhatIfBar(QWidget* parent) : QWidget(parent) {
    m_checkpointing = new QComboBox(this);
    m_checkpointing->setToolTip(QStringLiteral("training.activation_checkpointing"));
    m_zero = new QComboBox(this);
    m_zero->setToolTip(QStringLiteral("parallel.zero_stage (ZeRO over the parallel.data_parallel ranks)"));
    m_offloadOptimizer = new QCheckBox(this);
    m_offloadOptimizer->setToolTip(QStringLiteral("training.offload_optimizer: states and masters on the host"));
    m_offloadActivations = new QCheckBox(this);
    m_offloadActivations->setToolTip(QStringLiteral("training.offload_activations: saved activations to the host over PCIe"));
    m_allocator = new QComboBox(this);
    m_allocator->setToolTip(QStringLiteral("optimizations.allocator"));
    for (const QString& c : kCheckpointing) m_checkpointing->addItem(c, c);
    for (int z = 0; z <= 3; ++z) m_zero->addItem(QString::number(z), z);
    for (const QString& a : kAllocators) m_allocator->addItem(a, a);
    m_prediction = new QLabel(this);
    m_prediction->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Two rows: the controls, and under each the figures of its current choice (each
    // choice's own figures are in the combo lists). The combination's prediction wraps on
    // the right and never widens the tab.
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setVerticalSpacing(0);
    auto* title = new QLabel(QStringLiteral("<b>What if</b>"), this);
    title->setToolTip(QStringLiteral("Each choice shows its predicted allocated / reserved peak and step time, re-simulated "
                                     "with only that setting changed; the text on the right predicts the combination"));
    layout->addWidget(title, 0, 0);
    int column = 1;
    auto add = [&](const QString& caption, QWidget* control) {
        auto* cell = new QHBoxLayout;
        if (!caption.isEmpty()) cell->addWidget(new QLabel(caption, this));
        cell->addWidget(control);
        cell->addStretch(1);
        layout->addLayout(cell, 0, column);
        auto* figures = new QLabel(this);
        figures->setStyleSheet(QStringLiteral("color: palette(mid);"));
        layout->addWidget(figures, 1, column);
        m_figureLabels.push_back(figures);
        ++column;
    };
    add(QStringLiteral("checkpointing"), m_checkpointing);
    add(QStringLiteral("ZeRO"), m_zero);
    add({}, m_offloadOptimizer);
    add({}, m_offloadActivations);
    add(QStringLiteral("allocator"), m_allocator);
    m_prediction->setWordWrap(true);
    m_prediction->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_prediction->setMinimumWidth(160);
    layout->addWidget(m_prediction, 0, column, 2, 1);
    layout->setColumnStretch(column, 1);
    m_offloadOptimizer->setText(QStringLiteral("offload optimizer"));
    m_offloadActivations->setText(QStringLiteral("offload activations"));
    for (QComboBox* c : {m_checkpointing, m_zero, m_allocator}) {
        // Sized by the short choice names; the list shows each choice with its figures.
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(c == m_zero ? 10 : 15);
    }

    for (QComboBox* c : {m_checkpointing, m_zero, m_allocator})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { emitChanged(); });
    for (QCheckBox* c : {m_offloadOptimizer, m_offloadActivations}) connect(c, &QCheckBox::toggled, this, [this] { emitChanged(); });
    relabel();
}

QString MemoryWhatIfBar::figuresText(const MemoryWhatIfFigures& f) {
    // Allocated / reserved in one unit, so the two read side by side.
    const ByteUnit unit = byteUnitFor(std::max(f.allocatedBytes, f.reservedBytes));
    QString text = QStringLiteral("%1 / %2 %3 · %4")
                       .arg(f.allocatedBytes / unit.divisor, 0, 'f', 1)
                       .arg(f.reservedBytes / unit.divisor, 0, 'f', 1)
                       .arg(unit.suffix, formatDuration(f.stepMs * 1e6));
    if (f.oom) text += QStringLiteral(" · OOM");
    return text;
}

void MemoryWhatIfBar::setBaseline(const MemoryWhatIfSettings& s, const MemoryWhatIfFigures& run, bool zeroAvailable) {
    m_baseline = s;
    m_run = run;
    m_choiceText.clear();
    m_zero->setEnabled(zeroAvailable || s.zeroStage > 0);
    m_zero->setToolTip(m_zero->isEnabled() ? QStringLiteral("parallel.zero_stage (ZeRO over the parallel.data_parallel ranks)")
                                           : QStringLiteral("ZeRO shards over data-parallel ranks: set parallel.data_parallel > 1"));
    m_updating = true;
    setSettings(s);
    m_updating = false;
    m_prediction->setText(QStringLiteral("open run: %1 (allocated / reserved peak · step)").arg(figuresText(run)));
    relabel();
}

MemoryWhatIfSettings MemoryWhatIfBar::settings() const {
    MemoryWhatIfSettings s;
    s.checkpointing = m_checkpointing->currentData().toString();
    s.zeroStage = m_zero->currentData().toInt();
    s.offloadOptimizer = m_offloadOptimizer->isChecked();
    s.offloadActivations = m_offloadActivations->isChecked();
    s.allocator = m_allocator->currentData().toString();
    return s;
}

void MemoryWhatIfBar::setSettings(const MemoryWhatIfSettings& s) {
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_checkpointing->setCurrentIndex(std::max(0, m_checkpointing->findData(s.checkpointing)));
    m_zero->setCurrentIndex(std::clamp(s.zeroStage, 0, 3));
    m_offloadOptimizer->setChecked(s.offloadOptimizer);
    m_offloadActivations->setChecked(s.offloadActivations);
    m_allocator->setCurrentIndex(std::max(0, m_allocator->findData(s.allocator)));
    m_updating = wasUpdating;
    emitChanged();
}

void MemoryWhatIfBar::emitChanged() {
    if (m_updating) return;
    relabel();
    const MemoryWhatIfSettings s = settings();
    if (s == m_baseline) m_prediction->setText(QStringLiteral("open run: %1 (allocated / reserved peak · step)").arg(figuresText(m_run)));
    emit changed(s);
}

void MemoryWhatIfBar::setChoiceFigures(const QString& choice, const MemoryWhatIfFigures& figures) {
    m_choiceText[choice] = figuresText(figures);
    relabel();
}

void MemoryWhatIfBar::setChoiceFailed(const QString& choice) {
    m_choiceText[choice] = QStringLiteral("failed");
    relabel();
}

QString MemoryWhatIfBar::choiceText(const QString& choice) const {
    const auto it = m_choiceText.find(choice);
    return it == m_choiceText.end() ? QString() : it->second;
}

// Each choice's label carries its figures once predicted; the baseline's choice is the
// open run itself.
void MemoryWhatIfBar::relabel() {
    auto label = [this](const QString& base, const QString& choice, bool current) {
        if (current) return base + QStringLiteral(" (open run)");
        const QString f = choiceText(choice);
        return f.isEmpty() ? base : base + QStringLiteral("  →  ") + f;
    };
    for (int i = 0; i < m_checkpointing->count(); ++i) {
        const QString c = m_checkpointing->itemData(i).toString();
        m_checkpointing->setItemText(i, label(c, QStringLiteral("checkpointing=") + c, c == m_baseline.checkpointing));
    }
    for (int i = 0; i < m_zero->count(); ++i)
        m_zero->setItemText(i, label(QString::number(i), QStringLiteral("zero=%1").arg(i), i == m_baseline.zeroStage));
    for (int i = 0; i < m_allocator->count(); ++i) {
        const QString a = m_allocator->itemData(i).toString();
        m_allocator->setItemText(i, label(a, QStringLiteral("allocator=") + a, a == m_baseline.allocator));
    }
    for (QComboBox* c : {m_checkpointing, m_zero, m_allocator})
        c->view()->setMinimumWidth(c->view()->sizeHintForColumn(0) + 24);
    // Under each control: its current choice's figures alone, or, for a check box, what
    // toggling it would give.
    const MemoryWhatIfSettings s = settings();
    auto under = [this](int index, const QString& choice, bool current, const QString& prefix = {}) {
        const QString f = current ? QStringLiteral("open run") : choiceText(choice);
        m_figureLabels[std::size_t(index)]->setText(f.isEmpty() ? QStringLiteral("…") : prefix + f);
    };
    under(0, QStringLiteral("checkpointing=") + s.checkpointing, s.checkpointing == m_baseline.checkpointing);
    under(1, QStringLiteral("zero=%1").arg(s.zeroStage), s.zeroStage == m_baseline.zeroStage);
    under(2, QStringLiteral("offload_optimizer=%1").arg(int(!m_baseline.offloadOptimizer)), false,
          m_baseline.offloadOptimizer ? QStringLiteral("off: ") : QStringLiteral("on: "));
    under(3, QStringLiteral("offload_activations=%1").arg(int(!m_baseline.offloadActivations)), false,
          m_baseline.offloadActivations ? QStringLiteral("off: ") : QStringLiteral("on: "));
    under(4, QStringLiteral("allocator=") + s.allocator, s.allocator == m_baseline.allocator);
    m_offloadOptimizer->setToolTip(QStringLiteral("training.offload_optimizer: states and masters on the host; ") +
                                   m_figureLabels[2]->text());
    m_offloadActivations->setToolTip(QStringLiteral("training.offload_activations: saved activations to the host over PCIe; ") +
                                     m_figureLabels[3]->text());
}

void MemoryWhatIfBar::setPredicting() { m_prediction->setText(QStringLiteral("predicting…")); }

void MemoryWhatIfBar::setPrediction(const MemoryWhatIfFigures& f) {
    m_prediction->setText(QStringLiteral("predicted %1 · open run %2").arg(figuresText(f), figuresText(m_run)));
}

void MemoryWhatIfBar::setPredictionFailed(const QString& error) {
    m_prediction->setText(QStringLiteral("prediction failed: ") + error);
    m_prediction->setToolTip(error);
}

QString MemoryWhatIfBar::predictionText() const { return m_prediction->text(); }

}  // namespace npu::views
