#include "engine/frontends/model_loader.h"

#include "engine/onnx/onnx_importer.h"
#include "engine/npuom/offline_model.h"

namespace npu::engine {

namespace {

bool hasLoss(const Graph& g) {
    if (g.outputs.empty()) return false;
    const int p = g.tensor(g.outputs.front()).producer;
    return p >= 0 && (g.node(p).kind == OpKind::CrossEntropy || g.node(p).kind == OpKind::NLLLoss || g.node(p).kind == OpKind::MeanLoss);
}

std::filesystem::path resolve(const std::string& path, const std::filesystem::path& folder) {
    std::filesystem::path p(path);
    return p.is_absolute() || folder.empty() ? p : folder / p;
}

}  // namespace

void ensureTrainingLoss(Graph& graph) {
    if (hasLoss(graph)) return;
    for (int t : graph.outputs) {
        if (!isFloating(graph.tensor(t).dtype)) continue;
        const int loss = graph.addTensor("loss", {}, DType::f32, TensorRole::activation);
        graph.addNode(OpKind::MeanLoss, "loss", {t}, {loss}, {}, Phase::forward, DType::f32);
        graph.outputs.insert(graph.outputs.begin(), loss);  // outputs[0] is the loss
        return;
    }
}

Expected<Graph> loadModelGraph(const ModelSource& source, const std::filesystem::path& projectFolder, const ZooShape& shape) {
    if (!source.zoo.empty()) return buildZooModel(source.zoo, source.config, shape);
    if (!source.onnx.empty() || !source.npuom.empty()) {
        Expected<ConversionResult> converted = makeError("unreachable");
        if (!source.onnx.empty()) {
            OnnxImportOptions options;
            options.inputShapes = source.inputs;
            options.dimValues = {{"batch", shape.batch}, {"batch_size", shape.batch}, {"N", shape.batch},
                                 {"seq", shape.seq}, {"sequence", shape.seq}, {"sequence_length", shape.seq}};
            converted = importOnnxForwardGraph(resolve(source.onnx, projectFolder), options);
        } else {
            converted = loadOfflineModel(resolve(source.npuom, projectFolder));
        }
        if (!converted) return converted.error();
        Graph graph = std::move(converted->graph);
        for (const Tensor& t : graph.tensors())
            if (t.hasUnknownDims() && t.role != TensorRole::weight)
                return makeError("model: tensor '" + t.name + "' has unbound dimensions; bind them in model.inputs");
        ensureTrainingLoss(graph);
        return graph;
    }
    return makeError("model: expected \"zoo\", \"onnx\" or \"npuom\"");
}

}  // namespace npu::engine
