#pragma once
// Run > Compare with Measured Run…: the open run (normally a simulated one) against a
// measured trace or .npudb the user picks; a trace is imported next to the open run
// (measured-<name>.npudb, as `--against` does), listed under the project's Runs, and the
// table opens in a dialog.

#include <QString>

#include <memory>

class QWidget;

namespace npu::engine {
struct Project;
}
namespace npu::profiler {
class ProfileDb;
}
namespace npu::views {
class MeasuredComparisonDialog;
}

namespace npu::app {

// The dialog (not shown), or null with *error set. *measured (when given) is the measured run.
views::MeasuredComparisonDialog* makeMeasuredComparisonDialog(QWidget* parent, const profiler::ProfileDb& simulated,
                                                              const QString& measuredPath, QString* error,
                                                              std::shared_ptr<profiler::ProfileDb>* measured = nullptr);

// Asks for the measured file, then shows the dialog; explains when no run is open. A trace
// it imported is recorded in `project`'s runs (when there is a project); returns whether
// the run list changed, so the caller refreshes the Project tree.
bool compareWithMeasuredRun(QWidget* parent, std::shared_ptr<const profiler::ProfileDb> simulated,
                            engine::Project* project);

}  // namespace npu::app
