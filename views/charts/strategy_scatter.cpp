#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/strategy_scatter.h"

#include "views/common/units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <map>

namespace npu::views {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kReachPx = 8;  // hover and click reach around a point

// Tableau 10: distinct for up to ten values, readable on white.
const QColor kColours[] = {QColor(0x4E, 0x79, 0xA7), QColor(0xF2, 0x8E, 0x2B), QColor(0xE1, 0x57, 0x59), QColor(0x76, 0xB7, 0xB2),
                           QColor(0x59, 0xA1, 0x4F), QColor(0xED, 0xC9, 0x48), QColor(0xB0, 0x7A, 0xA1), QColor(0xFF, 0x9D, 0xA7),
                           QColor(0x9C, 0x75, 0x5F), QColor(0xBA, 0xB0, 0xAC)};

QString dimensionValue(const engine::StrategyConfig& c, StrategyScatter::ColourBy by) {
    switch (by) {
    case StrategyScatter::ColourBy::tensor_parallel: return QStringLiteral("TP %1").arg(c.tensorParallel);
    case StrategyScatter::ColourBy::pipeline_stages: return QStringLiteral("PP %1").arg(c.pipelineStages);
    case StrategyScatter::ColourBy::schedule: return c.pipelineStages > 1 ? QString::fromStdString(c.scheduleName()) : QStringLiteral("no pipeline");
    case StrategyScatter::ColourBy::zero_stage: return QStringLiteral("ZeRO-%1").arg(c.zeroStage);
    case StrategyScatter::ColourBy::recomputation: return QString::fromStdString(c.activationCheckpointing) + QStringLiteral(" recomputation");
    }
    return {};
}

// Numeric order for the numbered dimensions, the search's order of recomputation levels.
int dimensionOrder(const engine::StrategyConfig& c, StrategyScatter::ColourBy by) {
    switch (by) {
    case StrategyScatter::ColourBy::tensor_parallel: return c.tensorParallel;
    case StrategyScatter::ColourBy::pipeline_stages: return c.pipelineStages;
    // No pipeline, 1F1B, GPipe, then interleaved by chunk count.
    case StrategyScatter::ColourBy::schedule:
        return c.pipelineStages <= 1 ? 0 : c.schedule == "1f1b" ? 1 : c.schedule == "gpipe" ? 2 : 2 + c.virtualStages;
    case StrategyScatter::ColourBy::zero_stage: return c.zeroStage;
    case StrategyScatter::ColourBy::recomputation: {
        const char* levels[] = {"none", "selective", "memory_bound", "full"};
        for (int i = 0; i < 4; ++i)
            if (c.activationCheckpointing == levels[i]) return i;
        return 4;
    }
    }
    return 0;
}

}  // namespace

StrategyScatter::StrategyScatter(QWidget* parent) : QWidget(parent) {
    m_dimension = new QComboBox(this);
    m_dimension->addItem(QStringLiteral("tensor parallel"), static_cast<int>(ColourBy::tensor_parallel));
    m_dimension->addItem(QStringLiteral("pipeline stages"), static_cast<int>(ColourBy::pipeline_stages));
    m_dimension->addItem(QStringLiteral("schedule"), static_cast<int>(ColourBy::schedule));
    m_dimension->addItem(QStringLiteral("ZeRO stage"), static_cast<int>(ColourBy::zero_stage));
    m_dimension->addItem(QStringLiteral("recomputation"), static_cast<int>(ColourBy::recomputation));
    m_dimension->setToolTip(QStringLiteral("The strategy dimension the points are coloured by"));
    connect(m_dimension, &QComboBox::currentIndexChanged, this,
            [this](int i) { setColourBy(static_cast<ColourBy>(m_dimension->itemData(i).toInt())); });
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Colour by"), this));
    bar->addWidget(m_dimension);
    bar->addStretch(1);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(180);
    m_plot->xAxis->setLabel(QStringLiteral("peak memory per device (GiB)"));
    m_plot->yAxis->setLabel(QStringLiteral("tokens/s"));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->legend->setBrush(QColor(255, 255, 255, 220));
    // Bottom right: the corner of slow strategies with much memory, where few points lie
    // (the front runs along the top left).
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &StrategyScatter::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &StrategyScatter::onMousePress);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);
}

void StrategyScatter::setResult(const engine::StrategySearchResult& result) {
    m_result = result;
    m_selected.reset();
    rebuild();
}

void StrategyScatter::clear() {
    m_result.reset();
    m_selected.reset();
    rebuild();
}

void StrategyScatter::setColourBy(ColourBy by) {
    m_colourBy = by;
    const int i = m_dimension->findData(static_cast<int>(by));
    if (i >= 0 && i != m_dimension->currentIndex()) m_dimension->setCurrentIndex(i);  // re-enters once, then equal
    rebuild();
}

void StrategyScatter::rebuild() {
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_ring = nullptr;
    m_points.clear();
    if (!m_result) {
        m_plot->replot();
        return;
    }
    const engine::StrategySearchResult& r = *m_result;
    for (std::size_t i = 0; i < r.strategies.size(); ++i)
        if (r.strategies[i].simulated()) m_points.push_back(i);

    // One series per value of the dimension (in its order), filled when the strategy fits.
    std::map<std::pair<int, QString>, std::vector<std::size_t>> byValue;
    for (std::size_t i : m_points) {
        const engine::StrategyConfig& c = r.strategies[i].config;
        byValue[{dimensionOrder(c, m_colourBy), dimensionValue(c, m_colourBy)}].push_back(i);
    }
    double maxTokens = 0, maxPeak = 0;
    bool anyOver = false;
    int colour = 0;
    for (const auto& [key, indices] : byValue) {
        const QColor c = kColours[colour++ % std::size(kColours)];
        QCPGraph* fits = m_plot->addGraph();
        fits->setName(key.second);
        fits->setLineStyle(QCPGraph::lsNone);
        fits->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 7));
        QCPGraph* over = m_plot->addGraph();
        over->setLineStyle(QCPGraph::lsNone);
        over->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c, 1.5), Qt::NoBrush, 7));
        over->removeFromLegend();
        for (std::size_t i : indices) {
            const engine::StrategyTrial& t = r.strategies[i];
            const double x = static_cast<double>(t.peak_bytes) / kGiB;
            (t.feasible() ? fits : over)->addData(x, t.tokens_per_s);
            maxTokens = std::max(maxTokens, t.tokens_per_s);
            maxPeak = std::max(maxPeak, x);
            anyOver = anyOver || !t.feasible();
        }
    }
    // The Pareto front, as steps: each front strategy holds its throughput until the next.
    const std::vector<std::size_t> front = engine::paretoFront(r);
    if (!front.empty()) {
        QCPGraph* f = m_plot->addGraph();
        f->setName(QStringLiteral("Pareto front"));
        f->setLineStyle(QCPGraph::lsStepLeft);
        f->setPen(QPen(QColor(0x33, 0x33, 0x33), 1.2, Qt::DashLine));
        f->setScatterStyle(QCPScatterStyle::ssNone);
        for (std::size_t i : front) f->addData(static_cast<double>(r.strategies[i].peak_bytes) / kGiB, r.strategies[i].tokens_per_s);
    }
    // The capacity line where it tells something: some strategy is over it, or the points
    // reach near it. Far beyond every point (a small model on a large device) it would
    // squeeze them into the left edge; a note at the right edge says where it is.
    const double capacity = static_cast<double>(r.capacity_bytes) / kGiB;
    const bool capacityShown = r.capacity_bytes > 0 && (anyOver || capacity <= 2 * maxPeak);
    const double xMax = std::max(1e-3, (capacityShown ? std::max(maxPeak, capacity) : maxPeak) * 1.08);
    if (r.capacity_bytes > 0 && !capacityShown) {
        auto* note = new QCPItemText(m_plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.99, 0.02);
        note->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        note->setText(QStringLiteral("device memory %1 →").arg(formatBytes(static_cast<double>(r.capacity_bytes))));
        note->setColor(QColor(0xC6, 0x28, 0x28));
        note->setFont(font());
    }
    if (capacityShown) {
        auto* line = new QCPItemStraightLine(m_plot);
        const double x = capacity;
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(QColor(0xC6, 0x28, 0x28), 1.5));
        auto* label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.02);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        label->setText(QStringLiteral("device memory %1 ").arg(formatBytes(static_cast<double>(r.capacity_bytes))));
        label->setColor(QColor(0xC6, 0x28, 0x28));
        label->setFont(font());
    }
    m_plot->xAxis->setRange(0, xMax);
    m_plot->yAxis->setRange(0, std::max(1.0, maxTokens * 1.1));
    m_ring = new QCPItemTracer(m_plot);
    m_ring->setStyle(QCPItemTracer::tsCircle);
    m_ring->setSize(15);
    m_ring->setPen(QPen(QColor(0x1F, 0x6F, 0xEB), 2.5));
    m_ring->setVisible(false);
    setSelected(m_selected);
}

void StrategyScatter::setSelected(std::optional<std::size_t> index) {
    m_selected = index;
    if (m_ring) {
        const bool shown = index && m_result && *index < m_result->strategies.size() && m_result->strategies[*index].simulated();
        m_ring->setVisible(shown);
        if (shown) {
            const engine::StrategyTrial& t = m_result->strategies[*index];
            m_ring->position->setCoords(static_cast<double>(t.peak_bytes) / kGiB, t.tokens_per_s);
        }
    }
    m_plot->replot();
}

QPointF StrategyScatter::pixelOf(std::size_t index) const {
    if (!m_result || index >= m_result->strategies.size()) return {};
    const engine::StrategyTrial& t = m_result->strategies[index];
    return {m_plot->xAxis->coordToPixel(static_cast<double>(t.peak_bytes) / kGiB), m_plot->yAxis->coordToPixel(t.tokens_per_s)};
}

std::optional<std::size_t> StrategyScatter::strategyAt(const QPointF& pixel) const {
    std::optional<std::size_t> best;
    double nearest = kReachPx * kReachPx;
    for (std::size_t i : m_points) {
        const QPointF d = pixelOf(i) - pixel;
        const double dd = d.x() * d.x() + d.y() * d.y();
        if (dd <= nearest) nearest = dd, best = i;
    }
    return best;
}

QStringList StrategyScatter::legendNames() const {
    QStringList names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i))) names << item->plottable()->name();
    return names;
}

bool StrategyScatter::savePng(const QString& file, int width, int height) { return m_plot->savePng(file, width, height); }

void StrategyScatter::onMouseMove(QMouseEvent* event) {
    const auto at = strategyAt(event->position());
    if (!at || !m_result) {
        QToolTip::hideText();
        return;
    }
    const engine::StrategyTrial& t = m_result->strategies[*at];
    const QString text = QStringLiteral("%1\n%2 tokens/s · step %3 · peak %4 per device%5")
                             .arg(QString::fromStdString(t.config.label()), formatCount(t.tokens_per_s), formatDuration(t.step_time_ms * 1e6),
                                  formatBytes(static_cast<double>(t.peak_bytes)),
                                  t.feasible() ? QString() : QStringLiteral(" — does not fit"));
    QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void StrategyScatter::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (const auto at = strategyAt(event->position())) {
        setSelected(*at);
        emit strategyClicked(*at);
    }
}

}  // namespace npu::views
