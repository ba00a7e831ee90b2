#pragma once
// Run > Estimate Resources…: "how many devices, how long" for the open project's model
// and training.mode (engine::estimateResources, the same computation as
// `npustudio --batch --estimate`): training tokens and the largest device count to try
// in, the fewest devices that fit, memory per device, step time, the time and
// device-hours for the tokens, every device count tried and the assumptions out. The
// estimate runs off the GUI thread; the dialog stays responsive.

#include "base/expected.h"
#include "engine/project/project.h"
#include "engine/planner/resource_estimator.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;
template <typename T>
class QFutureWatcher;

namespace npu::views {

class ResourceEstimateDialog : public QDialog {
    Q_OBJECT
public:
    explicit ResourceEstimateDialog(engine::Project project, QWidget* parent = nullptr);
    ~ResourceEstimateDialog() override;

    void setTokens(const QString& tokens);
    void setDevicesMax(int devices);
    // Starts the estimate (what the Estimate button does); finished() follows.
    void start();
    bool running() const;
    // The last estimate shown (empty before the first or after an error).
    const std::optional<engine::ResourceEstimate>& estimate() const { return m_estimate; }
    QString errorText() const;
    QTableWidget* trialsTable() const { return m_trials; }

signals:
    void finished();

private:
    void showResult(const Expected<engine::ResourceEstimate>& result);
    std::string modelName() const;

    engine::Project m_project;
    QLineEdit* m_tokens = nullptr;
    QSpinBox* m_devicesMax = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_result = nullptr;
    QTableWidget* m_trials = nullptr;
    QListWidget* m_assumptions = nullptr;
    QFutureWatcher<Expected<engine::ResourceEstimate>>* m_watcher = nullptr;
    std::optional<engine::ResourceEstimate> m_estimate;
};

}  // namespace npu::views
