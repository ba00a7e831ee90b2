// libFuzzer target for the PyTorch memory-snapshot reader, its allocator replay and the
// run it emits: see profiler_fuzz_inputs.h.
#include "tests/fuzz/profiler_fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!npu::profiler::fuzzing::fuzzSnapshotBytes(data, size)) __builtin_trap();
    return 0;
}
