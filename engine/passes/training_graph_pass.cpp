#include "engine/passes/training_graph_pass.h"

#include "engine/ir/op_registry.h"
#include "engine/passes/graph_edit.h"

#include <algorithm>
#include <map>

namespace npu::engine {

namespace {

// ZeRO's partition: an op of one rank covers 1/shards of the tensors it reads.
Attributes withShards(Attributes attrs, int shards) {
    if (shards > 1) attrs["shards"] = static_cast<std::int64_t>(shards);
    return attrs;
}

// A tensor needs a gradient when it is a floating-point, not frozen weight or computed
// from one.
std::vector<bool> requiresGrad(const Graph& g, const std::vector<int>& order) {
    std::vector<bool> rg(g.tensors().size(), false);
    for (const Tensor& t : g.tensors()) rg[static_cast<std::size_t>(t.id)] = t.role == TensorRole::weight && !t.frozen && isFloating(t.dtype);
    for (int id : order) {
        const Node& n = g.node(id);
        bool any = false;
        for (int t : n.inputs) any = any || (t >= 0 && rg[static_cast<std::size_t>(t)]);
        for (int t : n.outputs)
            if (t >= 0 && isFloating(g.tensor(t).dtype)) rg[static_cast<std::size_t>(t)] = any;
    }
    return rg;
}

}  // namespace

namespace {

// The weight gradient and the buffers it is accumulated into in place (a tensor read
// twice): fp32, and kept for the whole run.
void keepAsMainGrad(Graph& graph, int grad) {
    while (grad >= 0) {
        Tensor& t = graph.tensor(grad);
        t.dtype = DType::f32;
        t.persistent = true;
        const int producer = t.producer;
        if (producer < 0 || graph.node(producer).attrInt("inplace", 0) == 0 || graph.node(producer).inputs.empty()) break;
        grad = graph.node(producer).inputs[0];
    }
}

}  // namespace

TrainingOptions trainingOptionsFor(Precision precision, const std::string& optimizer) {
    TrainingOptions o;
    o.optimizer = optimizer;
    o.fp32MasterWeights = keepsFp32Masters(precision);
    o.optimizerStateDType = optimizerStateDType(precision);
    o.lossScaling = needsLossScaling(precision);
    return o;
}

Status TrainingGraphPass::apply(Graph& graph, PassStats&) {
    if (m_options.optimizer != "adamw" && m_options.optimizer != "sgd")
        return makeError("training.optimizer: expected adamw or sgd, got \"" + m_options.optimizer + "\"");
    if (graph.outputs.empty()) return makeError("the model has no loss output to train");
    for (const Node& n : graph.nodes())
        if (n.phase != Phase::forward) return makeError("the graph already has a backward pass");

    const std::vector<int> order = graph.topologicalOrder();
    const auto lossEnd = graph.outputs.begin() + std::clamp<std::ptrdiff_t>(m_options.lossOutputs, 1, static_cast<std::ptrdiff_t>(graph.outputs.size()));
    const std::vector<bool> rg = requiresGrad(graph, order);
    std::vector<int> grads(graph.tensors().size(), -1);
    std::vector<int> program = order;

    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Node f = graph.node(*it);
        BackwardContext ctx{graph, *it, {}, {}, {}, {}};
        bool seeds = false;
        for (int t : f.outputs) {
            ctx.dOut.push_back(t >= 0 && static_cast<std::size_t>(t) < grads.size() ? grads[static_cast<std::size_t>(t)] : -1);
            seeds = seeds || (t >= 0 && std::find(graph.outputs.begin(), lossEnd, t) != lossEnd);  // the losses; others are kept results
        }
        const bool hasGrad = std::any_of(ctx.dOut.begin(), ctx.dOut.end(), [](int g) { return g >= 0; });
        if (!hasGrad && !seeds) continue;
        for (int t : f.inputs) ctx.needGrad.push_back(t >= 0 && rg[static_cast<std::size_t>(t)]);
        OpRegistry::instance().emitBackward(ctx);
        for (std::size_t i = 0; i < f.inputs.size(); ++i) {
            const int t = f.inputs[i];
            const int d = i < ctx.dIn.size() ? ctx.dIn[i] : -1;
            if (t < 0 || d < 0) continue;
            grads.resize(graph.tensors().size(), -1);
            int& acc = grads[static_cast<std::size_t>(t)];
            if (acc < 0) {
                acc = d;
                continue;
            }
            // A tensor read twice (residual stream, tied embedding): autograd adds the
            // second gradient into the first buffer in place.
            const int sum = graph.addTensor(graph.tensor(t).name + ".grad_sum", graph.tensor(acc).shape, graph.tensor(acc).dtype,
                                            TensorRole::gradient);
            ctx.add(OpKind::Add, ".grad_accumulate" + std::to_string(i), {acc, d}, {sum}, {{"inplace", std::int64_t{1}}});
            grads.resize(graph.tensors().size(), -1);
            grads[static_cast<std::size_t>(t)] = sum;
        }
        program.insert(program.end(), ctx.emitted.begin(), ctx.emitted.end());
    }
    grads.resize(graph.tensors().size(), -1);

    // Optimizer: one multi-tensor op over all weights with a gradient.
    std::vector<int> updateInputs, allGrads, allWeights, fp32Grads;
    const bool castPartition = m_options.fp32GradPartition && !m_options.offloadOptimizer;
    const std::size_t tensorsBefore = graph.tensors().size();
    for (std::size_t t = 0; t < tensorsBefore; ++t) {
        const Tensor w = graph.tensor(static_cast<int>(t));
        if (w.role != TensorRole::weight || grads[t] < 0) continue;
        if (m_options.fp32MainGrad) keepAsMainGrad(graph, grads[t]);
        allGrads.push_back(grads[t]);
        allWeights.push_back(static_cast<int>(t));
        if (m_options.offloadOptimizer) continue;
        updateInputs.push_back(static_cast<int>(t));
        if (castPartition && graph.tensor(grads[t]).dtype != DType::f32) {
            fp32Grads.push_back(graph.addTensor(w.name + ".grad_fp32", w.shape, DType::f32, TensorRole::gradient));
            updateInputs.push_back(fp32Grads.back());
        } else {
            updateInputs.push_back(grads[t]);
        }
        if (m_options.fp32MasterWeights)
            updateInputs.push_back(graph.addTensor(w.name + ".master", w.shape, DType::f32, TensorRole::master_weight));
        const char* states[2] = {".exp_avg", ".exp_avg_sq"};
        const int nStates = m_options.optimizer == "adamw" ? 2 : 1;
        for (int s = 0; s < nStates; ++s)
            updateInputs.push_back(graph.addTensor(w.name + (nStates == 2 ? states[s] : ".momentum_buffer"), w.shape,
                                                   m_options.optimizerStateDType, TensorRole::optimizer_state));
    }
    if (allGrads.empty()) return makeError("no weight receives a gradient from the loss");
    if (m_options.lossScaling) {
        const int id = graph.addNode(OpKind::GradUnscale, "optimizer.grad_unscale", allGrads, {}, {}, Phase::optimizer, DType::f32);
        program.push_back(id);
    }
    const OpKind opt = m_options.optimizer == "adamw" ? OpKind::AdamW : OpKind::SGD;
    if (m_options.offloadOptimizer) {
        double params = 0;
        for (int w : allWeights) params += static_cast<double>(graph.tensor(w).numel());
        // Host update traffic per parameter (fp32): param, grad, states read; param, states
        // written; plus the master copy when the device weights are low precision.
        const double states = m_options.optimizer == "adamw" ? 2 : 1;
        const double perParam = 4 * (2 + 1 + 2 * states) + (m_options.fp32MasterWeights ? 8 : 0);
        const Attributes link{{"link", std::string("pcie_bandwidth")}, {"stream", std::string("memcpy")}};
        const Attributes pcie = withShards(link, m_options.optimizerShards);
        const Attributes gradientCopy = withShards(link, m_options.gradientCopyShards);
        // As ZeRO-Offload does, each gradient (this rank's partition of it) goes to the
        // host as soon as backward has finished it, and its device buffer is freed: the
        // device holds no gradients at the step, and none across micro-batches (the host
        // accumulates them).
        std::map<int, std::vector<int>> copiesAfter;  // producer node -> its gradients' copies
        for (std::size_t i = 0; i < allGrads.size(); ++i) {
            const Tensor& g = graph.tensor(allGrads[i]);
            copiesAfter[g.producer].push_back(graph.addNode(OpKind::MemcpyD2H, graph.tensor(allWeights[i]).name + ".grad_to_host", {allGrads[i]}, {},
                                                            gradientCopy, Phase::backward, g.dtype));
        }
        std::vector<int> withCopies;
        for (int id : program) {
            withCopies.push_back(id);
            if (auto it = copiesAfter.find(id); it != copiesAfter.end()) withCopies.insert(withCopies.end(), it->second.begin(), it->second.end());
        }
        for (int copy : copiesAfter[-1]) withCopies.push_back(copy);  // a gradient no op of the program writes
        program = std::move(withCopies);
        program.push_back(graph.addNode(opt, "optimizer.host_" + m_options.optimizer, {}, {},
                                        {{"link", std::string("host_optimizer_bandwidth")}, {"stream", std::string("host")},
                                         {"bytes", perParam * params / std::max(1, m_options.optimizerShards)},
                                         {"tensors", static_cast<std::int64_t>(allGrads.size())}},
                                        Phase::optimizer, DType::f32));
        program.push_back(graph.addNode(OpKind::MemcpyH2D, "optimizer.upload_parameters", allWeights, {}, pcie, Phase::optimizer, DType::f32));
        reorderNodes(graph, program);
        return {};
    }
    if (!fp32Grads.empty()) {
        std::vector<int> halfGrads;
        for (int g : allGrads)
            if (graph.tensor(g).dtype != DType::f32) halfGrads.push_back(g);
        program.push_back(graph.addNode(OpKind::GradToFp32, "optimizer.grad_partition_fp32", halfGrads, fp32Grads,
                                        withShards({}, m_options.optimizerShards), Phase::optimizer, DType::f32));
    }
    const Attributes updateAttrs = withShards({{"tensors", static_cast<std::int64_t>(allGrads.size())}}, m_options.optimizerShards);
    const int update = graph.addNode(opt, "optimizer." + m_options.optimizer, updateInputs, {}, updateAttrs, Phase::optimizer, DType::f32);
    program.push_back(update);
    reorderNodes(graph, program);
    return {};
}

}  // namespace npu::engine
