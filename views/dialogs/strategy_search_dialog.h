#pragma once
// Run > Search Parallel Strategies…: the open cluster project's strategies (DP x TP x PP,
// micro-batches, ZeRO, recomputation on its devices) ranked by predicted tokens/s
// (engine::searchStrategies, the same search as `npustudio --batch --search`). The search
// runs off the GUI thread with a progress bar and Cancel (a cancelled search shows what
// it found so far); Apply hands the selected strategy to the window, which writes it
// into the project through the Project explorer's edit path (checked, saved, re-simulation
// offered). A chart beside the table plots every simulated strategy (views/charts/
// strategy_scatter): clicking a point selects its row, selecting a row rings its point.

#include "engine/planner/strategy_search.h"
#include "base/expected.h"
#include "engine/project/project.h"

#include <QDialog>

#include <atomic>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QSplitter;
template <typename T>
class QFutureWatcher;

namespace npu::views {

class StrategyScatter;

class StrategySearchDialog : public QDialog {
    Q_OBJECT
public:
    explicit StrategySearchDialog(engine::Project project, QWidget* parent = nullptr);
    ~StrategySearchDialog() override;

    const engine::Project& project() const { return m_project; }
    void setOptions(const engine::StrategySearchOptions& options) { m_options = options; }
    // Starts the search (the Search button); finished() follows, also after cancel().
    void start();
    void cancel();
    bool running() const;
    const std::optional<engine::StrategySearchResult>& result() const { return m_result; }
    QString statusText() const;
    QTableWidget* table() const { return m_table; }
    QPushButton* applyButton() const { return m_apply; }
    QProgressBar* progressBar() const { return m_progress; }
    // Every simulated strategy plotted (tokens/s against peak memory); a click selects its row.
    StrategyScatter* chart() const { return m_chart; }
    QPushButton* saveChartButton() const { return m_saveChart; }
    // Save Chart as PNG… without its file dialog; false when there is nothing to save or the write failed.
    bool saveChart(const QString& file);
    // Emits applyRequested with the selected feasible strategy; false when none is.
    bool apply();

signals:
    void finished();
    void applyRequested(const engine::StrategyConfig& config);

private:
    void showResult(const Expected<engine::StrategySearchResult>& result);
    void updateApply();
    void selectStrategy(std::size_t index);

    engine::Project m_project;
    engine::StrategySearchOptions m_options;
    std::atomic<bool> m_cancel{false};
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_apply = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_bounds = nullptr;
    QTableWidget* m_table = nullptr;
    StrategyScatter* m_chart = nullptr;
    QPushButton* m_saveChart = nullptr;
    QFutureWatcher<Expected<engine::StrategySearchResult>>* m_watcher = nullptr;
    std::optional<engine::StrategySearchResult> m_result;
};

}  // namespace npu::views
