#pragma once
// The details text for a clicked box: attributes, input/output shapes and dtypes, FLOPs
// and bytes (from the engine's cost functions), or a collapsed block's totals.

#include "engine/ir/graph.h"
#include "views/graph/graph_display_model.h"

#include <QString>

namespace npu::views {

QString shapeText(const engine::Tensor& tensor);
QString nodeDetailsHtml(const engine::Graph& graph, const DisplayItem& item);

}  // namespace npu::views
