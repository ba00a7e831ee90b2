// libFuzzer target for opening an .npudb (a damaged or foreign SQLite file) and reading
// it with the run report and communication analyses: see profiler_fuzz_inputs.h.
#include "tests/fuzz/profiler_fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!npu::profiler::fuzzing::fuzzNpudbBytes(data, size)) __builtin_trap();
    return 0;
}
