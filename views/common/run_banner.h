#pragma once
// The bar over the open run's tabs that says the run is incomplete, as Perfetto's
// "trace was truncated" banner does: a trace cut inside its events was imported up to
// the cut (the `truncated` diagnostic, docs/trace-import.md), so every figure below is of
// part of the capture. Hidden for a complete run.

#include <QLabel>

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

// The banner's text for a run, empty when it has nothing to say.
QString runBannerText(const profiler::ProfileDb& db);

class RunBanner : public QLabel {
    Q_OBJECT
public:
    explicit RunBanner(QWidget* parent = nullptr);
    // Shows or hides the bar for this run (nullptr: no run, hidden).
    void setDatabase(const profiler::ProfileDb* db);
};

}  // namespace npu::views
