#include "runner/batch/estimate_command.h"

#include "base/units.h"
#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "base/atomic_file.h"
#include "engine/planner/resource_estimator.h"

#include <cstdio>
#include <ostream>

namespace npu::runner {

namespace {

bool parseNumber(const std::string& text, double& value) {
    try {
        std::size_t used = 0;
        value = std::stod(text, &used);
        return used == text.size();
    } catch (...) {
        return false;
    }
}

}  // namespace

int runEstimateCommand(const EstimateCommandOptions& options, std::ostream& out, std::ostream& err) {
    double tokens = 0, devicesMax = 0;
    if (!parseNumber(options.tokens, tokens) || !(tokens > 0)) {
        err << "npustudio: --tokens: expected a positive number of training tokens, got \"" << options.tokens << "\"\n";
        return kExitBadInput;
    }
    if (!parseNumber(options.devicesMax, devicesMax) || devicesMax < 1 || devicesMax > 1 << 20 || devicesMax != static_cast<int>(devicesMax)) {
        err << "npustudio: --devices-max: expected a positive integer, got \"" << options.devicesMax << "\"\n";
        return kExitBadInput;
    }
    auto project = loadBatchProject(options.project, err);
    if (!project) return kExitBadInput;
    engine::EstimateRequest request;
    request.tokens = tokens;
    request.devicesMax = static_cast<int>(devicesMax);
    auto e = engine::estimateResources(*project, request);
    if (!e) {
        err << "npustudio: " << e.message() << "\n";
        return kExitBadInput;
    }
    nlohmann::json report = e->toJson();
    report["project"] = options.project;
    report["tokens"] = tokens;
    report["training_mode"] = project->training.mode.name;
    if (e->fits) {
        out << "devices      " << e->devices << "  (" << e->strategy << ")\n"
            << "memory       " << units::bytes(static_cast<double>(e->bytes_per_device)) << " of " << units::bytes(static_cast<double>(e->capacity_bytes)) << " per device\n"
            << "step         " << e->step_time_ms << " ms, " << e->tokens_per_step << " tokens\n"
            << "for tokens   " << e->seconds_for_tokens / 3600 << " h (" << e->device_hours << " device-hours)\n";
    } else {
        out << "does not fit on up to " << request.devicesMax << " devices\n";
    }
    out << "device counts tried:\n";
    for (const engine::DeviceCountTrial& t : e->trials)
        out << "  " << t.devices << (t.fits ? "  fits      " : "  no fit    ") << units::bytes(static_cast<double>(t.peak_bytes)) << "  " << t.step_time_ms << " ms  "
            << t.strategy << "\n";
    out << "assumptions:\n";
    for (const std::string& a : e->assumptions) out << "  - " << a << "\n";
    if (!options.report.empty())
        if (auto s = npu::writeFileAtomically(options.report, report.dump(2) + "\n"); !s) {
            err << "npustudio: " << s.message() << "\n";
            return kExitRunFailed;
        }
    return kExitOk;
}

}  // namespace npu::runner
