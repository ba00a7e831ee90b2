#include "engine/training/model_ensemble.h"

#include <algorithm>

namespace npu::engine {

std::vector<int> appendModel(Graph& into, const Graph& model, const std::string& prefix, const AppendOptions& options) {
    std::vector<int> map(model.tensors().size(), -1);
    std::map<std::string, int> sharedWeights;  // weightsOf's weights by name
    if (!options.weightsOf.empty())
        for (const Tensor& t : into.tensors())
            if (t.role == TensorRole::weight && t.name.starts_with(options.weightsOf + ".")) sharedWeights[t.name] = t.id;
    for (const Tensor& t : model.tensors()) {
        const bool graphInput = std::find(model.inputs.begin(), model.inputs.end(), t.id) != model.inputs.end();
        if (auto b = options.bindInputs.find(t.name); graphInput && b != options.bindInputs.end()) {
            map[static_cast<std::size_t>(t.id)] = b->second;
            continue;
        }
        if (auto w = sharedWeights.find(options.weightsOf + "." + t.name); t.role == TensorRole::weight && w != sharedWeights.end()) {
            map[static_cast<std::size_t>(t.id)] = w->second;
            continue;
        }
        if (graphInput)
            for (int shared : into.inputs)
                if (into.tensor(shared).name == t.name && into.tensor(shared).shape == t.shape) map[static_cast<std::size_t>(t.id)] = shared;
        if (map[static_cast<std::size_t>(t.id)] >= 0) continue;
        // The data (token ids, labels) keeps its name so the next model shares it.
        const int id = into.addTensor(graphInput ? t.name : prefix + "." + t.name, t.shape, t.dtype, t.role);
        into.tensor(id).symbolicDims = t.symbolicDims;
        into.tensor(id).frozen = t.frozen;
        into.tensor(id).persistent = t.persistent;
        map[static_cast<std::size_t>(t.id)] = id;
    }
    auto mapped = [&map](const std::vector<int>& ids) {
        std::vector<int> out;
        for (int t : ids) out.push_back(t < 0 ? -1 : map[static_cast<std::size_t>(t)]);
        return out;
    };
    for (int t : model.inputs)
        if (!options.bindInputs.count(model.tensor(t).name) &&
            std::find(into.inputs.begin(), into.inputs.end(), map[static_cast<std::size_t>(t)]) == into.inputs.end())
            into.inputs.push_back(map[static_cast<std::size_t>(t)]);
    for (const Node& n : model.nodes()) {
        if (model.isRemoved(n.id)) continue;
        const int id = into.addNode(n.op, prefix + "." + n.name, mapped(n.inputs), mapped(n.outputs), n.attrs, n.phase, n.dtype);
        into.node(id).block = n.block.empty() ? prefix : prefix + "." + n.block;
        into.node(id).opaque = n.opaque;
    }
    return mapped(model.outputs);
}

std::string modelOfTask(const std::string& nodeName, const std::vector<std::string>& models, const std::string& mainModel) {
    for (const std::string& m : models)
        if (nodeName.size() > m.size() && nodeName.compare(0, m.size(), m) == 0 && nodeName[m.size()] == '.') return m;
    return mainModel;
}

void splitComputeTracksByModel(SimulationResult& result, const std::vector<std::string>& models, const std::string& mainModel) {
    for (DeviceResult& dev : result.devices) {
        std::map<std::string, int> trackOf;
        std::map<std::int64_t, int> movedAt;  // start of a moved compute kernel -> its new stream
        for (SimTask& task : dev.tasks) {
            if (task.stream != 0) continue;
            const std::string model = modelOfTask(task.name, models, mainModel);
            if (model == mainModel) continue;
            auto it = trackOf.find(model);
            if (it == trackOf.end()) {
                const int id = static_cast<int>(dev.streams.size());
                dev.streams.push_back({id, "Compute \xC2\xB7 " + model, StreamKind::compute});
                it = trackOf.emplace(model, id).first;
            }
            task.stream = it->second;
            movedAt[task.start_ns] = task.stream;
        }
        // A launch names its kernel by (stream, start): kernels on one stream never share
        // a start, so the start finds the moved kernel's new track.
        for (HostSlice& h : dev.host)
            if (auto m = movedAt.find(h.kernel_start_ns); h.stream == 0 && m != movedAt.end()) h.stream = m->second;
        if (!dev.streams.empty() && !trackOf.empty()) dev.streams[0].name = "Compute \xC2\xB7 " + mainModel;
        std::stable_sort(dev.tasks.begin(), dev.tasks.end(), [](const SimTask& a, const SimTask& b) {
            return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns;
        });
    }
}

std::map<std::string, double> stepTaskTimeMs(const SimulationResult& result, int step, const std::function<std::string(const SimTask&)>& keyOf) {
    std::map<std::string, double> ms;
    if (result.devices.empty() || step < 0 || static_cast<std::size_t>(step) >= result.steps.size()) return ms;
    const SimStep& s = result.steps[static_cast<std::size_t>(step)];
    for (const SimTask& task : result.devices.front().tasks)
        if (task.start_ns >= s.start_ns && task.start_ns < s.end_ns) ms[keyOf(task)] += task.dur_ns / 1e6;
    return ms;
}

std::map<std::string, double> timeByModelMs(const SimulationResult& result, const std::vector<std::string>& models,
                                            const std::string& mainModel, int step) {
    return stepTaskTimeMs(result, step, [&](const SimTask& task) { return modelOfTask(task.name, models, mainModel); });
}

}  // namespace npu::engine
