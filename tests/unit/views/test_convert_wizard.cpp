// The Convert Model wizard: inputs with dynamic dims listed and filled, conversion off
// the GUI thread, the .npuom written, the report panel showing unsupported ops first.

#include "tests/unit/onnx/onnx_test_models.h"
#include "views/dialogs/conversion_report_panel.h"
#include "views/dialogs/convert_wizard.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace npu;

class TestConvertWizard : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
private slots:
    void initTestCase() {
        // The default output folder without a project is the application's data folder:
        // the test's own, not the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("test_convert_wizard"));
    }

    // Issue 24: an empty or missing model path is refused on the first page, with the
    // reason, instead of passing three pages and failing with ": no such file".
    void firstPageRefusesAMissingModel() {
        views::ConvertWizard wizard;
        wizard.show();
        QCOMPARE(wizard.currentId(), wizard.startId());
        const int first = wizard.currentId();
        wizard.next();
        QCOMPARE(wizard.currentId(), first);
        QVERIFY2(wizard.modelInfoText().contains(QStringLiteral("Choose the ONNX model")), qPrintable(wizard.modelInfoText()));
        wizard.setModelPath(m_dir.filePath(QStringLiteral("absent.onnx")));
        wizard.next();
        QCOMPARE(wizard.currentId(), first);
        QVERIFY2(wizard.modelInfoText().contains(QStringLiteral("absent.onnx: no such file")), qPrintable(wizard.modelInfoText()));
        wizard.setModelPath(QFINDTESTDATA("../../data/models/squeezenet1_1.onnx"));
        QVERIFY(wizard.modelProblem().isEmpty());
        wizard.next();
        QVERIFY(wizard.currentId() != first);
    }

    // Issue 24: the default output is in the output folder (the project's, set by the app),
    // or without one in the application's data folder: never beside the input.
    void defaultOutputIsNotBesideTheInput() {
        const QString model = QFINDTESTDATA("../../data/models/squeezenet1_1.onnx");
        const QString inputFolder = QFileInfo(model).absolutePath();
        {
            views::ConvertWizard wizard;
            wizard.setModelPath(model);
            QVERIFY(!wizard.outputPath().isEmpty());
            QVERIFY2(QFileInfo(wizard.outputPath()).absolutePath() != inputFolder, qPrintable(wizard.outputPath()));
            QCOMPARE(QFileInfo(wizard.outputPath()).absolutePath(), QFileInfo(wizard.outputFolder()).absoluteFilePath());
        }
        views::ConvertWizard wizard;
        const QString project = m_dir.filePath(QStringLiteral("project"));
        wizard.setOutputFolder(project);
        wizard.setModelPath(model);
        QCOMPARE(wizard.outputPath(), QDir(project).filePath(QStringLiteral("squeezenet1_1.npuom")));
        // Another model chosen: the default follows it; an output typed by hand stays.
        wizard.setModelPath(QFINDTESTDATA("../../data/models/mobilenet_v2.onnx"));
        QCOMPARE(wizard.outputPath(), QDir(project).filePath(QStringLiteral("mobilenet_v2.npuom")));
        wizard.setOutputPath(m_dir.filePath(QStringLiteral("mine.npuom")));
        wizard.setModelPath(model);
        QCOMPARE(wizard.outputPath(), m_dir.filePath(QStringLiteral("mine.npuom")));
        // The folder is created when the conversion writes into it.
        wizard.setOutputPath(QString());
        wizard.setModelPath(model);
        QSignalSpy done(&wizard, &views::ConvertWizard::conversionFinished);
        wizard.startConversion();
        QVERIFY(done.wait(60000));
        QVERIFY2(done.front().front().toBool(), qPrintable(wizard.errorText()));
        QVERIFY(QFile::exists(QDir(project).filePath(QStringLiteral("squeezenet1_1.npuom"))));
    }

    void convertsMobilenet() {
        views::ConvertWizard wizard;
        wizard.setModelPath(QFINDTESTDATA("../../data/models/mobilenet_v2.onnx"));
        QCOMPARE(wizard.inputsModel()->rowCount(), 1);
        QCOMPARE(wizard.inputsModel()->item(0, 2)->text(), QStringLiteral("[batch,3,224,224]"));
        QCOMPARE(wizard.inputsModel()->item(0, 3)->text(), QStringLiteral("1,3,224,224"));
        wizard.inputsModel()->item(0, 3)->setText(QStringLiteral("2,3,224,224"));
        wizard.setOutputPath(m_dir.filePath(QStringLiteral("m.npuom")));
        wizard.setPrecision(QStringLiteral("bf16"));
        QSignalSpy done(&wizard, &views::ConvertWizard::conversionFinished);
        QSignalSpy converted(&wizard, &views::ConvertWizard::converted);
        wizard.startConversion();
        QVERIFY(done.wait(30000));
        QCOMPARE(done.front().front().toBool(), true);
        QCOMPARE(converted.size(), 1);
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("m.npuom"))));
        QCOMPARE(wizard.result()->report.params, std::int64_t{3487816});
        QCOMPARE(wizard.result()->report.targetPrecision, std::string("bf16"));
        QVERIFY(wizard.result()->report.unboundDims.empty());
        QAbstractItemModelTester tester(wizard.reportPanel()->opTypeModel());
        QVERIFY(wizard.reportPanel()->summaryText().contains(QStringLiteral("3,487,816")));
    }

    void unsupportedOpsFirstAndRed() {
        const QString path = m_dir.filePath(QStringLiteral("custom.onnx"));
        std::ofstream(path.toStdString(), std::ios::binary) << onnx_test::modelWithCustomOp().encode();
        views::ConvertWizard wizard;
        QAbstractItemModelTester inputsTester(wizard.inputsModel());
        wizard.setModelPath(path);
        QCOMPARE(wizard.inputsModel()->item(0, 3)->text(), QStringLiteral("1,16"));
        QSignalSpy done(&wizard, &views::ConvertWizard::conversionFinished);
        wizard.startConversion();
        QVERIFY(done.wait(30000));
        auto* ops = wizard.reportPanel()->opTypeModel();
        QVERIFY(ops->rowCount() == 3);
        // The table is sorted with unsupported rows on top.
        bool foundRed = false;
        for (int r = 0; r < ops->rowCount(); ++r)
            if (ops->item(r, 0)->text() == QStringLiteral("custom.domain::FancyOp"))
                foundRed = ops->item(r, 0)->background().color() == QColor(0xFF, 0xD6, 0xD6);
        QVERIFY(foundRed);
        QVERIFY(wizard.reportPanel()->messagesText().contains(QStringLiteral("unsupported custom.domain::FancyOp: fancy")));
    }

    void badShapeIsReported() {
        views::ConvertWizard wizard;
        wizard.setModelPath(QFINDTESTDATA("../../data/models/squeezenet1_1.onnx"));
        wizard.inputsModel()->item(0, 3)->setText(QStringLiteral("1,3,x,224"));
        QSignalSpy done(&wizard, &views::ConvertWizard::conversionFinished);
        wizard.startConversion();
        QCOMPARE(done.size(), 1);
        QVERIFY(wizard.errorText().contains(QStringLiteral("not an integer")));
    }
};

QTEST_MAIN(TestConvertWizard)
#include "test_convert_wizard.moc"
