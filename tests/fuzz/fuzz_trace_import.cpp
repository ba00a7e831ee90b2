// libFuzzer target for the Chrome/Kineto trace importer (streamed parse, B/E matching,
// flows, counters, gzip): see profiler_fuzz_inputs.h.
#include "tests/fuzz/profiler_fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!npu::profiler::fuzzing::fuzzTraceBytes(data, size)) __builtin_trap();
    return 0;
}
