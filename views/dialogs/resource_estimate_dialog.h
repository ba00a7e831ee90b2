#pragma once
// Run > Estimate Resources…: "how many devices, how long" for the open project's model
// and training.mode (engine::estimateResources, the same computation as
// `npustudio --batch --estimate`): training tokens and the largest device count to try
// in, the fewest devices that fit, memory per device, step time, the time and
// device-hours for the tokens, and then every larger power of two up to the maximum:
// a table and a chart of step time, days and cost (device-hours x the price per
// device-hour, when one is given) against device count, and the assumptions. The
// estimate runs off the GUI thread; the dialog stays responsive.

#include "base/expected.h"
#include "engine/project/project.h"
#include "engine/planner/resource_estimator.h"

#include <QDialog>

#include <optional>

class QCustomPlot;
class QDoubleSpinBox;
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
    QCustomPlot* chart() const { return m_chart; }
    void setPricePerDeviceHour(double price);

signals:
    void finished();

private:
    void showResult(const Expected<engine::ResourceEstimate>& result);
    void fillTrials();
    void plotTrials();
    std::string modelName() const;

    engine::Project m_project;
    QLineEdit* m_tokens = nullptr;
    QSpinBox* m_devicesMax = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_result = nullptr;
    QDoubleSpinBox* m_price = nullptr;
    QTableWidget* m_trials = nullptr;
    QCustomPlot* m_chart = nullptr;
    QListWidget* m_assumptions = nullptr;
    QFutureWatcher<Expected<engine::ResourceEstimate>>* m_watcher = nullptr;
    std::optional<engine::ResourceEstimate> m_estimate;
};

}  // namespace npu::views
