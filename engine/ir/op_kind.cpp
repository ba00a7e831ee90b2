#include "engine/ir/op_kind.h"

#include <array>
#include <unordered_map>

namespace npu::engine {

namespace {

constexpr std::array<std::string_view, kOpKindCount> kOpKindNames{
#define NPU_OP_KIND_NAME(name) std::string_view(#name),
    NPU_OP_KINDS(NPU_OP_KIND_NAME)
#undef NPU_OP_KIND_NAME
};

}  // namespace

std::string_view opKindName(OpKind kind) {
    const auto index = static_cast<std::size_t>(kind);
    return index < kOpKindNames.size() ? kOpKindNames[index] : std::string_view();
}

OpKind opKindFromName(std::string_view op) {
    static const std::unordered_map<std::string_view, OpKind> byName = [] {
        std::unordered_map<std::string_view, OpKind> m;
        for (std::size_t i = 0; i < kOpKindNames.size(); ++i) m.emplace(kOpKindNames[i], static_cast<OpKind>(i));
        return m;
    }();
    auto it = byName.find(op);
    return it == byName.end() ? OpKind::unknown : it->second;
}

}  // namespace npu::engine
