#pragma once
// Lowering an ONNX graph (after binding and shape inference) to the engine's forward
// Graph: one engine tensor per ONNX value with its inferred shape and dtype, one node per
// ONNX node with its attributes. Initializers contribute shapes and dtypes only.

#include "engine/onnx/conversion_report.h"
#include "engine/onnx/onnx_importer.h"

#include <onnx/onnx_pb.h>

#include <set>
#include <string>

namespace npu::engine::onnx_detail {

// `dataInputs`: graph inputs known to be data (bound by the user or dynamic before
// binding); in a weights-free export, float inputs combined with what is computed from
// the data are parameters (see lowering).
Graph lowerOnnxGraph(const onnx::ModelProto& model, const OnnxImportOptions& options, ConversionReport& report,
                     const std::set<std::string>& dataInputs = {});

// The repeated block a node belongs to, from its scoped name ("/layer1/layer1.0/conv1/Conv"
// -> "layer1.0") or from its weights' names ("enc.layers.3.linear1.weight" -> "enc.layers.3").
std::string blockFromNames(const std::string& nodeName, const std::vector<std::string>& weightNames);

}  // namespace npu::engine::onnx_detail
