// New Project dialog: writes a project the engine loads back with the chosen values, and
// refuses to overwrite or to write a nameless one.

#include "engine/project/project.h"
#include "views/dialogs/new_project_dialog.h"

#include <QApplication>
#include <QFile>
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

    void rejectsABadName() {
        QTemporaryDir tmp;
        NewProjectDialog d;
        d.setLocation(tmp.path());
        d.setName(QStringLiteral("a/b"));
        QVERIFY(!d.writeProject().ok());
        d.setName(QString());
        QVERIFY(!d.writeProject().ok());
    }
};

QTEST_MAIN(TestNewProjectDialog)
#include "test_new_project_dialog.moc"
