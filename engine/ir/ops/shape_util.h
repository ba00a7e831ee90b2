#pragma once
// Helpers shared by the shape-inference rules of the op families.

#include "base/expected.h"
#include "engine/ir/node.h"
#include "engine/ir/op_registry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine::ops {

using Shape = std::vector<std::int64_t>;

std::string shapeText(const Shape& s);
// The result of a rule with one output.
inline Expected<std::vector<ShapeOutput>> singleOutput(Shape s, DType t) { return std::vector<ShapeOutput>{{std::move(s), t}}; }
Error shapeError(const Node& node, const std::string& what);
// Numpy broadcasting; unknown dims (-1) broadcast to unknown.
Expected<Shape> broadcast(const Node& node, const Shape& a, const Shape& b);
// Normalises a possibly negative axis for the given rank; error if out of range.
Expected<int> normaliseAxis(const Node& node, std::int64_t axis, std::size_t rank);
std::int64_t product(const Shape& s);   // -1 if any dim unknown (or the product overflows)
Status needInputs(const Node& node, const std::vector<ShapeInput>& in, std::size_t count);
// Attribute list, or the values of input `index` when constant (ONNX moved many
// attributes to inputs across opsets).
// Value rule (ValueFn) of ops that keep their first input's values (Identity, Cast,
// Reshape, Unsqueeze, ...): values are flat, so a change of shape keeps them.
std::optional<Shape> sameValues(const Node& node, const std::vector<ShapeInput>& in);
std::optional<std::vector<std::int64_t>> intsFromAttrOrInput(const Node& node, const char* attr,
                                                             const std::vector<ShapeInput>& in, std::size_t index);

}  // namespace npu::engine::ops
