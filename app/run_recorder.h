#pragma once
// The run recorder moved to profiler/runs (Qt-free, used by the one simulation run
// function); these names keep the app's call sites unchanged.

#include "profiler/runs/run_recorder.h"

namespace npu::app {

using profiler::isoTimestampUtc;
using profiler::newRunName;
using profiler::recordRun;
using profiler::runsFolder;

}  // namespace npu::app
