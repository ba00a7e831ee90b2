#pragma once
// The model front ends behind a project's "model": zoo configs, ONNX files and converted
// .npuom offline models all become a forward Graph with a scalar loss output, ready for
// the training passes.

#include "base/expected.h"
#include "engine/ir/graph.h"
#include "engine/models/model_zoo.h"
#include "engine/project/project.h"

#include <filesystem>

namespace npu::engine {

// Relative ONNX/npuom paths resolve against projectFolder. `shape` gives zoo models their
// batch and sequence length, and binds ONNX dims named batch/seq/sequence when the
// project's "inputs" leave them open.
Expected<Graph> loadModelGraph(const ModelSource& source, const std::filesystem::path& projectFolder,
                               const ZooShape& shape = {});

// Imported inference graphs have no loss: add a parameter-free MeanLoss over the first
// floating-point output so training simulation has a gradient to start from.
void ensureTrainingLoss(Graph& graph);

}  // namespace npu::engine
