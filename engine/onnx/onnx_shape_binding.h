#pragma once
// Binding dynamic dimensions before ONNX shape inference: full shapes per input from the
// user ("input_ids:8,1024") and values per symbolic name ("batch"=8), applied to the
// graph inputs, outputs and value_info so inference sees consistent static dims.

#include "base/expected.h"
#include "engine/onnx/onnx_importer.h"

#include <onnx/onnx_pb.h>

#include <set>
#include <string>
#include <vector>

namespace npu::engine::onnx_detail {

std::set<std::string> initializerNames(const onnx::GraphProto& graph);

// Errors for a name that is no graph input, a rank mismatch or a conflict with a static
// dimension; the report's log records each binding. Dynamic dims left over whose name
// says batch ("batch", "batch_size", "N", "B", "bs") are bound to 1 (per-sample figures,
// as published ones are) with a warning, unless options.bindBatchToOne is off.
// Returns the data inputs: those named by options.inputShapes and those that had a
// dynamic dim before binding.
Expected<std::set<std::string>> bindInputShapes(onnx::ModelProto& model, const OnnxImportOptions& options,
                                                const std::string& name, ConversionReport& report);

// ONNX shape inference with data propagation (Shape->Gather->Concat->Reshape chains);
// failures become warnings, the converter's own propagation fills what is left.
void inferShapes(onnx::ModelProto& model, std::vector<std::string>& warnings);

}  // namespace npu::engine::onnx_detail
