#pragma once
// Turns flow events (s/t/f) into links between slices, after the slices are written
// and sorted: events pair by category + id (id2.local scoped to the process), "s" and
// "t" bind to the enclosing slice on their thread, "f" to the enclosing slice with
// bp:"e" and otherwise to the next slice starting at or after it (Trace Event Format).

#include "profiler/importers/chrome_json/trace_builder.h"

namespace npu::profiler {

class FlowBinder {
public:
    // Needs TraceBuilder::writeTo's per-thread ids/parents; returns the links written.
    static std::int64_t run(TraceBuilder& builder, TraceSink& sink);
};

}  // namespace npu::profiler
