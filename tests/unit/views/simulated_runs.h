#pragma once
// Runs for the views tests: a project simulated into a temporary folder without recording
// it in the project's runs, and a .npudb opened the way the views share it. A database
// that does not open stops the test with its message.

#include "engine/project/project.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <filesystem>
#include <memory>

namespace npu::views::testing {

inline runner::SimulationRun simulateInto(engine::Project& project, const QTemporaryDir& dir) {
    runner::SimulationRunOptions o;
    o.dir = dir.path().toStdString();
    o.record = false;
    return runner::runSimulation(project, o);
}

inline std::shared_ptr<const profiler::ProfileDb> openDb(const std::filesystem::path& path) {
    auto db = profiler::ProfileDb::open(path);
    if (!db) qFatal("%s", db.message().c_str());
    return std::shared_ptr<const profiler::ProfileDb>(std::move(db).value());
}

}  // namespace npu::views::testing
