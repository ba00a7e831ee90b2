#pragma once
// Run > Search Parallel Strategies…: the open cluster project's strategies (DP x TP x PP,
// micro-batches, ZeRO, recomputation on its devices) ranked by predicted tokens/s
// (engine::searchStrategies, the same search as `npustudio --batch --search`). The search
// runs off the GUI thread with a progress bar and Cancel (a cancelled search shows what
// it found so far); Apply hands the selected strategy to the window, which writes it
// into the project through the Project explorer's edit path (checked, saved, re-simulation
// offered).

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
template <typename T>
class QFutureWatcher;

namespace npu::views {

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
    // Emits applyRequested with the selected feasible strategy; false when none is.
    bool apply();

signals:
    void finished();
    void applyRequested(const engine::StrategyConfig& config);

private:
    void showResult(const Expected<engine::StrategySearchResult>& result);
    void updateApply();

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
    QFutureWatcher<Expected<engine::StrategySearchResult>>* m_watcher = nullptr;
    std::optional<engine::StrategySearchResult> m_result;
};

}  // namespace npu::views
