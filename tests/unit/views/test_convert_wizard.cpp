// The Convert Model wizard: inputs with dynamic dims listed and filled, conversion off
// the GUI thread, the .npuom written, the report panel showing unsupported ops first.

#include "tests/unit/onnx/onnx_test_models.h"
#include "views/dialogs/conversion_report_panel.h"
#include "views/dialogs/convert_wizard.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace npu;

class TestConvertWizard : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
private slots:
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
