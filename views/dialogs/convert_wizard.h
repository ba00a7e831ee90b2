#pragma once
// File > Convert Model: choose an ONNX file (checked on its page), fill its dynamic input
// dimensions, choose the target device and precision and the output path (by default in
// the project's folder), convert off the GUI thread with progress and Cancel, then read
// the report (unsupported ops highlighted). The .npuom is written when conversion succeeds.

#include "engine/onnx/onnx_importer.h"

#include <QFutureWatcher>
#include <QWizard>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStandardItemModel;

namespace npu::views {

class ConversionReportPanel;

class ConvertWizard : public QWizard {
    Q_OBJECT
public:
    explicit ConvertWizard(QWidget* parent = nullptr);
    ~ConvertWizard() override;

    void setModelPath(const QString& path);   // also fills the inputs page
    QString modelPath() const;
    // Where the default output goes: the open project's folder (the app sets it); without
    // one, a folder of the application's data, never beside the input.
    void setOutputFolder(const QString& folder);
    QString outputFolder() const;
    // Why the first page refuses Next (empty path, no such file, not an ONNX model), or empty.
    QString modelProblem() const;
    QString modelInfoText() const;  // under the path: the model's producer and inputs, or the problem
    void setOutputPath(const QString& path);
    QString outputPath() const;
    void setPrecision(const QString& precision);  // "model" | fp32 | fp16 | bf16
    void setDevice(const QString& device);
    // The inputs' shapes as typed ("1,3,224,224" per input); false with a message if not integers.
    bool inputShapes(std::map<std::string, std::vector<std::int64_t>>& shapes, QString& error) const;
    QStandardItemModel* inputsModel() const { return m_inputs; }

    void startConversion();
    void cancelConversion();
    bool conversionRunning() const;
    // After a successful conversion: the converted model (the .npuom is already written).
    std::shared_ptr<const engine::ConversionResult> result() const { return m_result; }
    QString errorText() const { return m_error; }
    ConversionReportPanel* reportPanel() const { return m_report; }

signals:
    void converted(const QString& npuomPath);
    void conversionFinished(bool ok);

private:
    struct Outcome {
        std::shared_ptr<engine::ConversionResult> result;
        QString error;
        bool saved = false;
    };
    void inspectModel();
    void onFinished();
    int m_convertPageId = -1;

    QLineEdit* m_path;
    QLabel* m_modelInfo;
    QStandardItemModel* m_inputs;
    QComboBox* m_device;
    QComboBox* m_precision;
    QCheckBox* m_strict;
    QLineEdit* m_output;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QPushButton* m_cancel;
    ConversionReportPanel* m_report;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    std::shared_ptr<const engine::ConversionResult> m_result;
    QString m_error;
    QString m_outputFolder;
    QString m_defaultOutput;  // the output as last filled in by default (replaced on another model)
    bool m_done = false;
};

}  // namespace npu::views
