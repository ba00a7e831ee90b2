// Graph view over converted models: Graphviz layout off the GUI thread, boxes and
// edges on screen, unsupported ops flagged, search, details, block collapsing, and a
// 1,000+ node graph laid out and shown.

#include "engine/onnx/onnx_importer.h"
#include "engine/models/model_zoo.h"
#include "tests/unit/onnx/onnx_test_models.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_view.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <iostream>

using namespace npu;

namespace {

std::shared_ptr<const engine::Graph> convert(const char* name, const engine::OnnxImportOptions& options = {}) {
    auto r = engine::importOnnxForwardGraph(std::filesystem::path(QFINDTESTDATA("../../data/models").toStdString()) / name, options);
    if (!r) qFatal("%s", r.message().c_str());
    return std::make_shared<const engine::Graph>(std::move(r->graph));
}

bool waitForLayout(views::GraphView& view, int timeoutMs = 20000) {
    QSignalSpy spy(&view, &views::GraphView::layoutFinished);
    return spy.wait(timeoutMs);
}

}  // namespace

class TestGraphView : public QObject {
    Q_OBJECT
private slots:
    void showsResnet() {
        views::GraphView view;
        view.resize(1000, 700);
        view.show();
        view.setGraph(convert("resnet18_noweights.onnx"));
        QVERIFY(view.layoutPending());
        QVERIFY(waitForLayout(view));
        // 49 ONNX nodes after the parameter Identity nodes were folded away.
        QCOMPARE(view.itemCount(), static_cast<int>(view.graph()->nodes().size()));
        QVERIFY(view.edgeCount() >= view.itemCount() - 1);
        QCOMPARE(view.opaqueItemCount(), 0);

        QVERIFY(view.findNext(QStringLiteral("conv")));
        const QString details = view.detailsHtml();
        QVERIFY(details.contains(QStringLiteral("FLOPs")));
        QVERIFY(details.contains(QStringLiteral("kernel_shape")));
        QVERIFY(details.contains(QStringLiteral("[1, 64, 112, 112]")));  // first Conv's output shape
        QVERIFY(!view.findNext(QStringLiteral("no-such-op")));
    }

    void flagsUnsupportedOps() {
        engine::OnnxImportOptions options;
        options.inputShapes["x"] = {2, 16};
        auto r = engine::importOnnxFromBytes(onnx_test::modelWithCustomOp().encode(), "custom.onnx", options);
        QVERIFY(r.ok());
        views::GraphView view;
        view.setGraph(std::make_shared<const engine::Graph>(std::move(r->graph)));
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.opaqueItemCount(), 1);
        QVERIFY(view.findNext(QStringLiteral("fancy")));
        QVERIFY(view.detailsHtml().contains(QStringLiteral("Unsupported op")));
    }

    void collapsesBlocks() {
        engine::OnnxImportOptions options;
        options.inputShapes["input_ids"] = {2, 64};
        auto graph = convert("tiny_bert.onnx", options);
        const auto blocks = views::graphBlocks(*graph);
        QVERIFY2(blocks.size() >= 2, "tiny_bert's encoder layers are blocks");
        views::GraphView view;
        view.setGraph(graph);
        QVERIFY(waitForLayout(view));
        const int expanded = view.itemCount();
        view.collapseAllBlocks();
        QVERIFY(waitForLayout(view));
        QVERIFY(view.itemCount() < expanded / 2);
        view.expandAllBlocks();
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.itemCount(), expanded);
        view.setHideShapeOnly(false);  // constants back on screen
        QVERIFY(waitForLayout(view));
        QVERIFY(view.itemCount() > expanded);
    }

    void largeGraphOnScreen() {
        // A GPT-2-sized graph from the engine's zoo, grown until it passes 1,000 nodes.
        std::shared_ptr<const engine::Graph> graph;
        for (int layers = 12; layers <= 96 && (!graph || graph->nodes().size() < 1000); layers += 12) {
            auto g = engine::buildZooModel("gpt", {{"hidden", 768}, {"layers", layers}, {"heads", 12}, {"vocab", 50257}, {"max_seq", 1024}},
                                           {1, 1024});
            QVERIFY2(g, g ? "" : g.message().c_str());
            graph = std::make_shared<const engine::Graph>(std::move(g).value());
        }
        QVERIFY(graph->nodes().size() >= 1000);
        views::GraphView view;
        view.resize(1200, 800);
        view.show();
        QElapsedTimer timer;
        timer.start();
        view.setGraph(graph);
        view.expandAllBlocks();  // every node, no collapsing
        QVERIFY(waitForLayout(view, 60000));
        const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
        std::cout << graph->nodes().size() << " nodes: " << view.itemCount() << " boxes on screen in " << seconds
                  << " s (dot layout " << view.lastLayoutSeconds() << " s)\n";
        QVERIFY(view.itemCount() >= 1000);
        QVERIFY(seconds < 10.0);  // < 1 s on an idle machine; see tests/benchmarks/onnx
    }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
