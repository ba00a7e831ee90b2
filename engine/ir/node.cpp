#include "engine/ir/node.h"

#include <algorithm>
#include <utility>

namespace npu::engine {

std::string_view phaseName(Phase p) {
    switch (p) {
    case Phase::forward: return "forward";
    case Phase::backward: return "backward";
    case Phase::recompute: return "recompute";
    case Phase::optimizer: return "optimizer";
    case Phase::communication: return "communication";
    }
    return "forward";
}

std::string_view opCategoryName(OpCategory c) {
    switch (c) {
    case OpCategory::matmul: return "matmul";
    case OpCategory::conv: return "conv";
    case OpCategory::elementwise: return "elementwise";
    case OpCategory::norm: return "norm";
    case OpCategory::reduce: return "reduce";
    case OpCategory::attention: return "attention";
    case OpCategory::data_movement: return "data_movement";
    case OpCategory::comm: return "comm";
    case OpCategory::optimizer: return "optimizer";
    case OpCategory::other: return "other";
    }
    return "other";
}

void Node::setOp(std::string opType) {
    kind = opKindFromName(opType);
    op = std::move(opType);
}

std::int64_t Node::attrInt(std::string_view key, std::int64_t fallback) const {
    auto it = attrs.find(std::string(key));
    if (it == attrs.end()) return fallback;
    if (auto v = std::get_if<std::int64_t>(&it->second)) return *v;
    if (auto v = std::get_if<double>(&it->second)) return static_cast<std::int64_t>(*v);
    return fallback;
}

double Node::attrFloat(std::string_view key, double fallback) const {
    auto it = attrs.find(std::string(key));
    if (it == attrs.end()) return fallback;
    if (auto v = std::get_if<double>(&it->second)) return *v;
    if (auto v = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*v);
    return fallback;
}

std::string Node::attrString(std::string_view key, std::string fallback) const {
    auto it = attrs.find(std::string(key));
    if (it == attrs.end()) return fallback;
    if (auto v = std::get_if<std::string>(&it->second)) return *v;
    return fallback;
}

std::vector<std::int64_t> Node::attrInts(std::string_view key) const {
    auto it = attrs.find(std::string(key));
    if (it == attrs.end()) return {};
    if (auto v = std::get_if<std::vector<std::int64_t>>(&it->second)) return *v;
    if (auto v = std::get_if<std::int64_t>(&it->second)) return {*v};
    return {};
}

bool isOp(const Node& node, std::initializer_list<OpKind> kinds) {
    return std::find(kinds.begin(), kinds.end(), node.kind) != kinds.end();
}

}  // namespace npu::engine
