#pragma once
// An operation of the graph. Its op type is kept as a string (the ONNX/zoo vocabulary,
// e.g. "MatMul", "RMSNorm") so that ops we do not model can still be carried as opaque
// nodes and written back to files, and as the OpKind it names, which engine code
// compares; the OpRegistry gives each kind its category, shape rule, cost and backward.

#include "engine/ir/dtype.h"
#include "engine/ir/op_kind.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace npu::engine {

enum class Phase : std::uint8_t { forward, backward, recompute, optimizer, communication };
std::string_view phaseName(Phase p);

enum class OpCategory : std::uint8_t {
    matmul, conv, elementwise, norm, reduce, attention, data_movement, comm, optimizer, other
};
std::string_view opCategoryName(OpCategory c);

using AttrValue = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>, std::vector<double>>;
using Attributes = std::map<std::string, AttrValue>;

struct Node {
    int id = -1;
    std::string op;      // op type; change it with setOp() so that `kind` follows
    OpKind kind = OpKind::unknown;  // opKindFromName(op), resolved once by Graph::addNode
    std::string name;    // unique, scoped ("layers.3.attn.q_proj")
    Attributes attrs;
    std::vector<int> inputs;   // tensor ids
    std::vector<int> outputs;  // tensor ids
    Phase phase = Phase::forward;
    DType dtype = DType::f32;  // compute precision
    std::string block;         // repeated block this node belongs to ("layers.3"), for recompute and grouping
    int forwardNode = -1;      // for backward/recompute nodes: the forward node they derive from
    bool opaque = false;       // unsupported op kept for its bytes (ONNX conversion)

    void setOp(std::string opType);

    std::int64_t attrInt(std::string_view key, std::int64_t fallback) const;
    double attrFloat(std::string_view key, double fallback) const;
    std::string attrString(std::string_view key, std::string fallback = {}) const;
    std::vector<std::int64_t> attrInts(std::string_view key) const;
};

// True when the node's kind is one of `kinds`.
bool isOp(const Node& node, std::initializer_list<OpKind> kinds);

}  // namespace npu::engine
