#pragma once
// The strategy search as a picture (Run > Search Parallel Strategies…): every simulated
// strategy as a point, tokens/s against peak memory per device, the device's capacity as a
// vertical line and the search's Pareto front (engine::paretoFront) as a step line. Points
// are coloured by one chosen dimension (TP, PP, ZeRO stage, recomputation); those over the
// device's memory are hollow. Hover names a strategy; a click emits its index in the
// result's strategies (the dialog selects its row); the selected one is ringed.

#include "engine/planner/strategy_search.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPItemTracer;
class QMouseEvent;

namespace npu::views {

class StrategyScatter : public QWidget {
    Q_OBJECT
public:
    enum class ColourBy { tensor_parallel, pipeline_stages, schedule, zero_stage, recomputation };

    explicit StrategyScatter(QWidget* parent = nullptr);

    void setResult(const engine::StrategySearchResult& result);
    void clear();
    void setColourBy(ColourBy by);
    ColourBy colourBy() const { return m_colourBy; }
    // Rings the strategy at `index` of the result's strategies (none when it is not plotted).
    void setSelected(std::optional<std::size_t> index);
    std::optional<std::size_t> selected() const { return m_selected; }
    // The plotted strategies' indices (simulated ones), and where each is drawn (pixels).
    const std::vector<std::size_t>& plotted() const { return m_points; }
    QPointF pixelOf(std::size_t index) const;
    // The strategy nearest to a pixel within a few pixels' reach.
    std::optional<std::size_t> strategyAt(const QPointF& pixel) const;
    // The series names in the legend: one per value of the colour dimension, the front, the capacity.
    QStringList legendNames() const;
    bool savePng(const QString& file, int width = 0, int height = 0);
    QCustomPlot* plot() const { return m_plot; }

signals:
    void strategyClicked(std::size_t index);

private:
    void rebuild();
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);

    QComboBox* m_dimension = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPItemTracer* m_ring = nullptr;
    ColourBy m_colourBy = ColourBy::tensor_parallel;
    std::optional<engine::StrategySearchResult> m_result;
    std::vector<std::size_t> m_points;  // simulated strategies
    std::optional<std::size_t> m_selected;
};

}  // namespace npu::views
