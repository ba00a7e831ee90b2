#pragma once
// Run > Compare with Measured Run…: the open run (normally a simulated one) against a
// measured trace or .npudb the user picks; a trace is imported next to the open run
// (measured-<name>.npudb, as `--against` does) and the table opens in a dialog.

#include <QString>

#include <memory>

class QWidget;

namespace npu::profiler {
class ProfileDb;
}
namespace npu::views {
class MeasuredComparisonDialog;
}

namespace npu::app {

// The dialog (not shown), or null with *error set.
views::MeasuredComparisonDialog* makeMeasuredComparisonDialog(QWidget* parent, const profiler::ProfileDb& simulated,
                                                              const QString& measuredPath, QString* error);

// Asks for the measured file, then shows the dialog; explains when no run is open.
void compareWithMeasuredRun(QWidget* parent, std::shared_ptr<const profiler::ProfileDb> simulated);

}  // namespace npu::app
