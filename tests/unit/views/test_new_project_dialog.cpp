// New Project dialog: writes a project the engine loads back with the chosen values, and
// refuses to overwrite, to write a nameless one or one on a device that has no profile.

#include "engine/project/project.h"
#include "views/dialogs/new_project_dialog.h"

#include <QApplication>
#include <QDir>
#include <QSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using npu::views::NewProjectDialog;

class TestNewProjectDialog : public QObject {
    Q_OBJECT
private slots:
    void writesALoadableLlamaProject() {
        QTemporaryDir tmp;
        NewProjectDialog d;
        d.setLocation(tmp.path());
        d.setName(QStringLiteral("my-llama"));
        d.applyPreset(QStringLiteral("llama-7b"));
        d.setDevice(QStringLiteral("ascend-910b"));
        d.setBatch(4);
        d.setPrecision(QStringLiteral("fp16-amp"));
        QVERIFY(d.writeProject().ok());
        QCOMPARE(d.projectFile(), tmp.filePath(QStringLiteral("my-llama/project.json")));

        auto loaded = npu::engine::loadProject(d.projectFile().toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
        QCOMPARE(QString::fromStdString(loaded->name), QStringLiteral("my-llama"));
        QCOMPARE(QString::fromStdString(loaded->model.zoo), QStringLiteral("llama"));
        QCOMPARE(loaded->model.config.at("hidden").get<int>(), 4096);
        QCOMPARE(loaded->model.config.at("ffn").get<int>(), 11008);
        QCOMPARE(loaded->model.config.at("layers").get<int>(), 32);
        QCOMPARE(QString::fromStdString(loaded->device), QStringLiteral("ascend-910b"));
        QCOMPARE(loaded->training.batch, 4);
        QCOMPARE(QString::fromStdString(loaded->training.precision), QStringLiteral("fp16-amp"));

        // A second write to the same place is refused instead of overwriting.
        QVERIFY(!d.writeProject().ok());
    }

    void writesResnetAndGpt() {
        QTemporaryDir tmp;
        for (const QString& preset : {QStringLiteral("resnet50"), QStringLiteral("gpt2"), QStringLiteral("bert-base")}) {
            NewProjectDialog d;
            d.setLocation(tmp.path());
            d.setName(preset);
            d.applyPreset(preset);
            const auto st = d.writeProject();
            QVERIFY2(st.ok(), st.ok() ? "" : st.message().c_str());
            auto loaded = npu::engine::loadProject(d.projectFile().toStdString());
            QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
            if (preset == QStringLiteral("resnet50")) QCOMPARE(loaded->model.config.at("depth").get<int>(), 50);
            else QVERIFY(loaded->model.config.contains("max_seq"));
        }
    }

    // Issue 24 Minor: a converted (or any ONNX) model can be simulated from the GUI: New
    // Project offers "From converted model", and the project it writes loads and checks.
    void fromAConvertedModel() {
        QTemporaryDir tmp;
        NewProjectDialog d;
        d.setLocation(tmp.path());
        d.setName(QStringLiteral("from-onnx"));
        d.setModelFile(QString());
        QVERIFY2(d.validate().message().find("choose a converted model") != std::string::npos, d.validate().message().c_str());
        d.setModelFile(tmp.filePath(QStringLiteral("missing.npuom")));
        QVERIFY2(d.validate().message().find("missing.npuom: no such file") != std::string::npos, d.validate().message().c_str());
        const QString onnx = QFINDTESTDATA("../../data/models/resnet18_noweights.onnx");
        QVERIFY(!onnx.isEmpty());
        d.setModelFile(onnx);
        d.setBatch(2);
        const auto st = d.writeProject();
        QVERIFY2(st.ok(), st.ok() ? "" : st.message().c_str());
        auto loaded = npu::engine::loadProject(d.projectFile().toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
        QVERIFY(loaded->model.zoo.empty());
        QCOMPARE(QString::fromStdString(loaded->model.onnx), QFileInfo(onnx).absoluteFilePath());
    }

    void rejectsABadName() {
        QTemporaryDir tmp;
        NewProjectDialog d;
        d.setLocation(tmp.path());
        d.setName(QStringLiteral("a/b"));
        QVERIFY(!d.writeProject().ok());
        d.setName(QString());
        QVERIFY(!d.writeProject().ok());
    }

    // Issue 24: an empty name asks for one (it said "expected a folder name without slashes").
    void emptyNameAsksForOne() {
        QTemporaryDir tmp;
        NewProjectDialog d;
        d.setLocation(tmp.path());
        d.setName(QString());
        QTRY_VERIFY(!d.okEnabled());
        QVERIFY2(d.errorText().contains(QStringLiteral("enter a project name")), qPrintable(d.errorText()));
        QVERIFY(!d.errorText().contains(QStringLiteral("slashes")));
    }

    // Issue 24, Major 6: the device box lists the profiles present, and a typed name that is
    // none of them is refused with the choices, before anything is written.
    void deviceIsOneOfTheProfilesPresent() {
        const QStringList present = QDir(QStringLiteral(NPU_SOURCE_DIR "/resources/devices"))
                                        .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)
                                        .replaceInStrings(QStringLiteral(".json"), QString());
        QVERIFY(present.contains(QStringLiteral("h200")));
        QTemporaryDir tmp;
        NewProjectDialog d;
        QStringList choices = d.deviceChoices();
        choices.sort();
        QCOMPARE(choices, present);
        d.setLocation(tmp.path());
        d.setName(QStringLiteral("foo"));
        QTRY_VERIFY(d.okEnabled());
        d.setDevice(QStringLiteral("foo-npu"));
        QTRY_VERIFY(!d.okEnabled());
        QVERIFY2(d.errorText().contains(QStringLiteral("foo-npu")) && d.errorText().contains(QStringLiteral("no such device profile")) &&
                     d.errorText().contains(QStringLiteral("ascend-910b")),
                 qPrintable(d.errorText()));
        QVERIFY(!d.writeProject().ok());
        QVERIFY(!QFile::exists(d.projectFile()));
        // A path to a device JSON is a device too.
        d.setDevice(QStringLiteral(NPU_SOURCE_DIR "/resources/devices/ascend-910b.json"));
        QTRY_VERIFY2(d.okEnabled(), qPrintable(d.errorText()));
        d.setDevice(QStringLiteral("ascend-910b"));
        QTRY_VERIFY(d.okEnabled());
        QVERIFY(d.writeProject().ok());
    }

    // Issue 24: the preset box says "Custom" once a size is edited, and the preset's name
    // again when one is picked.
    void editedSizesAreCustom() {
        NewProjectDialog d;
        d.applyPreset(QStringLiteral("llama-small"));
        QVERIFY(d.presetText().startsWith(QStringLiteral("LLaMA small")));
        QSpinBox* layers = nullptr;
        for (QSpinBox* s : d.findChildren<QSpinBox*>())
            if (s->toolTip() == QStringLiteral("Transformer layers")) layers = s;
        QVERIFY(layers);
        layers->setValue(layers->value() + 1);
        QCOMPARE(d.presetText(), QStringLiteral("Custom"));
        d.applyPreset(QStringLiteral("gpt2"));
        QVERIFY(d.presetText().startsWith(QStringLiteral("GPT-2")));
        // The batch is the training's, not the model's: the preset's name stays.
        d.setBatch(3);
        QVERIFY(d.presetText().startsWith(QStringLiteral("GPT-2")));
    }
};

QTEST_MAIN(TestNewProjectDialog)
#include "test_new_project_dialog.moc"
