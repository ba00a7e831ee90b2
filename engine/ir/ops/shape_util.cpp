#include "engine/ir/ops/shape_util.h"

#include <algorithm>

namespace npu::engine::ops {

std::string shapeText(const Shape& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i) out += ",";
        out += s[i] < 0 ? std::string("?") : std::to_string(s[i]);
    }
    return out + "]";
}

Error shapeError(const Node& node, const std::string& what) {
    return makeError("node '" + node.name + "' (" + node.op + "): " + what);
}

Expected<Shape> broadcast(const Node& node, const Shape& a, const Shape& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    Shape out(rank, 1);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da == db) out[i] = da;
        else if (da == 1) out[i] = db;
        else if (db == 1) out[i] = da;
        else if (da < 0 || db < 0) out[i] = std::max(da, db) > 0 ? std::max(da, db) : kUnknownDim;
        else return shapeError(node, "cannot broadcast " + shapeText(a) + " with " + shapeText(b));
    }
    return out;
}

Expected<int> normaliseAxis(const Node& node, std::int64_t axis, std::size_t rank) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= std::max<std::int64_t>(r, 1))
        return shapeError(node, "axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + r : axis);
}

std::int64_t product(const Shape& s) {
    std::int64_t p = 1;
    for (auto d : s)
        if (d < 0 || __builtin_mul_overflow(p, d, &p)) return -1;  // unknown, or too large to count
    return p;
}

Status needInputs(const Node& node, const std::vector<ShapeInput>& in, std::size_t count) {
    if (in.size() < count)
        return shapeError(node, "expected at least " + std::to_string(count) + " inputs, got " + std::to_string(in.size()));
    return {};
}

std::optional<std::vector<std::int64_t>> intsFromAttrOrInput(const Node& node, const char* attr,
                                                             const std::vector<ShapeInput>& in, std::size_t index) {
    if (node.attrs.count(attr)) return node.attrInts(attr);
    if (index < in.size() && in[index].values) return in[index].values;
    return std::nullopt;
}

std::optional<Shape> sameValues(const Node&, const std::vector<ShapeInput>& in) {
    return in.empty() ? std::nullopt : in[0].values;
}

}  // namespace npu::engine::ops
