#include "engine/sim/dtype_summary.h"

namespace npu::engine {

void summarizeByDType(SimulationResult& result, int step) {
    SimSummary& s = result.summary;
    s.time_by_dtype_ms.clear();
    s.bytes_by_dtype.clear();
    if (result.devices.empty() || step < 0 || static_cast<std::size_t>(step) >= result.steps.size()) return;
    const SimStep& first = result.steps[static_cast<std::size_t>(step)];
    for (const SimTask& t : result.devices.front().tasks) {
        if (t.start_ns < first.start_ns || t.start_ns >= first.end_ns || t.dur_ns <= 0) continue;
        const std::string dtype(dtypeName(t.dtype));
        s.time_by_dtype_ms[dtype] += static_cast<double>(t.dur_ns) / 1e6;
        s.bytes_by_dtype[dtype] += t.bytes;
    }
}

}  // namespace npu::engine
