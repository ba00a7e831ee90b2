#pragma once
// The Memory tab's what-if row: the settings that change memory — activation
// checkpointing, ZeRO stage, offload optimizer, offload activations, allocator — set to
// the open project's values. The app re-simulates (app/what_if) every single change from
// those values and each choice shows its predicted allocated / reserved peak and step
// time; changing the controls predicts that combination next to the open run's figures.
// The widget only holds the choices and shows figures it is given.

#include <QString>
#include <QWidget>

#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace npu::views {

struct MemoryWhatIfSettings {
    QString checkpointing = QStringLiteral("none");  // none | selective | memory_bound | full
    int zeroStage = 0;
    bool offloadOptimizer = false;
    bool offloadActivations = false;
    QString allocator = QStringLiteral("caching");   // caching | buddy | static
    bool operator==(const MemoryWhatIfSettings&) const = default;
};

// One predicted outcome, as the row shows it.
struct MemoryWhatIfFigures {
    double allocatedBytes = 0;
    double reservedBytes = 0;
    double stepMs = 0;
    bool oom = false;
};

class MemoryWhatIfBar : public QWidget {
    Q_OBJECT
public:
    explicit MemoryWhatIfBar(QWidget* parent = nullptr);

    // The open project's settings (the controls are reset to them, no signal) and the
    // open run's figures. zeroAvailable: the project has parallel.data_parallel > 1.
    void setBaseline(const MemoryWhatIfSettings& settings, const MemoryWhatIfFigures& run, bool zeroAvailable);
    MemoryWhatIfSettings settings() const;
    void setSettings(const MemoryWhatIfSettings& settings);  // emits changed when different
    const MemoryWhatIfSettings& baseline() const { return m_baseline; }

    // The figures of one choice, applied alone to the baseline ("checkpointing=full",
    // "zero=2", "offload_optimizer=1", "offload_activations=1", "allocator=buddy").
    void setChoiceFigures(const QString& choice, const MemoryWhatIfFigures& figures);
    void setChoiceFailed(const QString& choice);
    // The current combination's prediction (or "predicting…", or an error).
    void setPredicting();
    void setPrediction(const MemoryWhatIfFigures& figures);
    void setPredictionFailed(const QString& error);
    QString predictionText() const;
    QString choiceText(const QString& choice) const;  // what the control shows for a choice

    static QString figuresText(const MemoryWhatIfFigures& f);  // "5.1 / 6.0 GiB · 230 ms"

signals:
    void changed(const npu::views::MemoryWhatIfSettings& settings);

private:
    void emitChanged();
    void relabel();

    MemoryWhatIfSettings m_baseline;
    MemoryWhatIfFigures m_run;
    std::map<QString, QString> m_choiceText;  // choice -> figures text
    QComboBox* m_checkpointing;
    QComboBox* m_zero;
    QCheckBox* m_offloadOptimizer;
    QCheckBox* m_offloadActivations;
    QComboBox* m_allocator;
    QLabel* m_prediction;
    std::vector<QLabel*> m_figureLabels;  // under each control, in order
    bool m_updating = false;
};

}  // namespace npu::views
