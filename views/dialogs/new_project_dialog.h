#pragma once
// File > New Project: name, location, model (a zoo family with its key sizes, a preset,
// or a converted model: a .npuom from File > Convert Model… or an .onnx file), device,
// batch, sequence length and precision. On OK it writes <location>/<name>/project.json
// through engine::saveProject.

#include "base/expected.h"
#include "engine/project/project.h"

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QPushButton;
class QTimer;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace npu::views {

class NewProjectDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewProjectDialog(QWidget* parent = nullptr);

    void setLocation(const QString& folder);
    void setName(const QString& name);
    // Picks a preset: "llama-7b", "llama-small", "gpt2", "bert-base", "resnet50".
    void applyPreset(const QString& preset);
    void setDevice(const QString& device);
    void setBatch(int batch);
    void setPrecision(const QString& precision);
    // "From converted model" with this .npuom or .onnx file.
    void setModelFile(const QString& file);

    engine::Project project() const;  // from the current fields
    QString projectFile() const;      // <location>/<name>/project.json
    // What a load and a simulation would reject (the project parser, then the model
    // builder); shown inline under the form while the user edits, with OK disabled.
    Status validate() const;
    // Creates the folder and writes project.json; what accept() does.
    Status writeProject() const;
    QString errorText() const;
    QString presetText() const;  // the preset box as shown ("Custom" once sizes are edited)
    QStringList deviceChoices() const;  // the device box's entries
    bool okEnabled() const;

    void accept() override;

private:
    void familyChanged();
    void sizesEdited();  // a model size or the family changed by hand: the preset is "Custom"
    void updateValidation();

    QLineEdit* m_name;
    QLineEdit* m_location;
    QComboBox* m_preset;
    QComboBox* m_family;
    QStackedWidget* m_sizes;
    QLineEdit* m_modelFile;
    QSpinBox *m_hidden, *m_ffn, *m_layers, *m_heads, *m_kvHeads, *m_vocab, *m_maxSeq;
    QSpinBox *m_depth, *m_classes, *m_image;
    QComboBox* m_device;
    QSpinBox* m_batch;
    QSpinBox* m_seq;
    QComboBox* m_precision;
    QLabel* m_error;
    QPushButton* m_ok = nullptr;
    QTimer* m_check = nullptr;
    bool m_applyingPreset = false;
};

}  // namespace npu::views
