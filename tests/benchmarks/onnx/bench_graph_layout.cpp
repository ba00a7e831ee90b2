// Graph view layout time (Graphviz dot through libgvc) for the largest graphs at hand:
// a GPT-2-like zoo graph grown past 1,000 nodes and the biggest libonnx-testdata model.
// Prints display-graph build and dot layout times (the GUI adds item creation, ~ms).
#include "engine/onnx/onnx_importer.h"
#include "engine/models/model_zoo.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_layout.h"

#include <QGuiApplication>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

using namespace npu;
using Clock = std::chrono::steady_clock;

static void measure(const char* label, const engine::Graph& graph) {
    for (bool hide : {true, false}) {
        const auto t0 = Clock::now();
        views::DisplayOptions options;
        options.hideShapeOnly = hide;
        const auto display = views::buildDisplayGraph(graph, options);
        views::LayoutRequest request;
        for (const auto& item : display.items) {
            const QSizeF s = views::GraphNodeItem::sizeFor(item);
            request.nodes.push_back({s.width(), s.height()});
        }
        for (const auto& e : display.edges) request.edges.push_back({e.from, e.to});
        const double build = std::chrono::duration<double>(Clock::now() - t0).count();
        const auto layout = views::layoutWithDot(request);
        std::printf("%-34s %6zu nodes %s: %5zu boxes %5zu edges, display %.3f s, dot layout %.3f s%s%s\n", label,
                    graph.nodes().size(), hide ? "(shape ops hidden)" : "(all ops)         ", display.items.size(),
                    display.edges.size(), build, layout.seconds, layout.error.empty() ? "" : " ERROR ", layout.error.c_str());
    }
}

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);  // fonts for the box sizes
    for (int layers : {12, 48, 84}) {
        auto g = engine::buildZooModel("gpt", {{"hidden", 768}, {"layers", layers}, {"heads", 12}, {"vocab", 50257}, {"max_seq", 1024}},
                                       {1, 1024});
        if (!g) {
            std::printf("zoo gpt: %s\n", g.message().c_str());
            break;
        }
        measure(("zoo gpt, " + std::to_string(layers) + " layers").c_str(), *g);
    }
    // The libonnx-testdata model with the most nodes.
    std::shared_ptr<engine::Graph> largest;
    std::string largestName;
    for (const auto& e : std::filesystem::recursive_directory_iterator("/usr/share/libonnx-testdata/data")) {
        if (e.path().extension() != ".onnx") continue;
        auto r = engine::importOnnxForwardGraph(e.path(), {});
        if (r && (!largest || r->graph.nodes().size() > largest->nodes().size())) {
            largest = std::make_shared<engine::Graph>(std::move(r->graph));
            largestName = e.path().parent_path().filename().string();
        }
    }
    if (largest) measure(largestName.c_str(), *largest);
    const auto bert = std::filesystem::path(NPU_SOURCE_DIR) / "tests/data/models/tiny_bert.onnx";
    engine::OnnxImportOptions o;
    o.inputShapes["input_ids"] = {2, 64};
    if (auto r = engine::importOnnxForwardGraph(bert, o)) measure("tiny_bert.onnx", r->graph);
    return 0;
}
