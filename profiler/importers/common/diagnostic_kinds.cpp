#include "profiler/importers/common/diagnostic_kinds.h"

#include <array>

namespace npu::profiler {
namespace {

constexpr std::array kDiagnostics = {
#define NPU_DIAGNOSTIC_INFO(name, severity, description) \
    DiagnosticInfo{DiagnosticKind::name, #name, Severity::severity, description},
    NPU_IMPORT_DIAGNOSTICS(NPU_DIAGNOSTIC_INFO)
#undef NPU_DIAGNOSTIC_INFO
};

}  // namespace

const DiagnosticInfo& diagnosticInfo(DiagnosticKind kind) { return kDiagnostics[static_cast<size_t>(kind)]; }

std::span<const DiagnosticInfo> allDiagnostics() { return kDiagnostics; }

const DiagnosticInfo* findDiagnostic(std::string_view name) {
    for (const auto& d : kDiagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

}  // namespace npu::profiler
