#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/communication/comm_matrix_chart.h"

#include "views/common/units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace npu::views {
namespace {

const char* const kMetricNames[] = {"Bandwidth (GB/s)", "Transit size (MB)", "Transit time (ms)", "Link type"};
// Cells are labelled up to this many ranks; beyond, the colours and the tooltip speak.
constexpr int kLabelledRanks = 8;

QString cellText(CommMatrixChart::Metric m, double v, const QString& types) {
    switch (m) {
    case CommMatrixChart::Bandwidth: return QString::number(v, 'f', v < 10 ? 2 : 1);
    case CommMatrixChart::TransitSize: return formatBytes(v * 1e6);
    case CommMatrixChart::TransitTime: return formatDuration(v * 1e6);
    default: return types;
    }
}

}  // namespace

CommMatrixChart::CommMatrixChart(QWidget* parent) : QWidget(parent) {
    m_metricBox = new QComboBox(this);
    for (const char* n : kMetricNames) m_metricBox->addItem(QString::fromLatin1(n));
    m_metricBox->setToolTip(QStringLiteral("What each cell of the rank × rank matrix shows"));
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int i) { setMetric(Metric(i)); });

    m_plot = new QCustomPlot(this);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, QStringLiteral("Rank × rank communication"),
                                                              QFont(font().family(), 10, QFont::Bold)));
    m_plot->xAxis->setLabel(QStringLiteral("destination rank"));
    m_plot->yAxis->setLabel(QStringLiteral("source rank"));
    m_plot->yAxis->setRangeReversed(true);  // rank 0 at the top, as in a table
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, m_scale);
    m_map->setColorScale(m_scale);
    auto* margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_map->setInterpolate(false);

    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const long x = std::lround(m_plot->xAxis->pixelToCoord(e->position().x()));
        const long y = std::lround(m_plot->yAxis->pixelToCoord(e->position().y()));
        QString tip = m_plot->toolTip();
        if (x >= 0 && y >= 0 && x < long(m_destinations.size()) && y < long(m_sources.size())) {
            const std::pair<std::int64_t, std::int64_t> key{m_sources[std::size_t(y)], m_destinations[std::size_t(x)]};
            if (const auto it = m_cells.find(key); it != m_cells.end())
                tip = QStringLiteral("%1 → %2 (%3)\ntransit size %4\ntransit time %5\nbandwidth %6 GB/s")
                          .arg(key.first)
                          .arg(key.second)
                          .arg(it->second.types, formatBytes(it->second.size_mb * 1e6), formatDuration(it->second.time_ms * 1e6))
                          .arg(it->second.time_ms > 0 ? it->second.size_mb / it->second.time_ms : 0, 0, 'f', 2);
        }
        QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
    });

    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_empty);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(QStringLiteral("Matrix:"), this));
    top->addWidget(m_metricBox);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);
    setMinimumSize(380, 260);
}

void CommMatrixChart::setOverview(const profiler::CommunicationOverview& o) {
    m_cells.clear();
    m_types.clear();
    std::set<std::int64_t> sources, destinations;
    for (const auto& l : o.links) {
        sources.insert(l.src);
        destinations.insert(l.dst);
        auto& c = m_cells[{l.src, l.dst}];
        c.size_mb += l.size_mb;
        c.time_ms += double(l.time_ns) / 1e6;
        const QString t = QString::fromStdString(l.transport);
        if (!c.types.split(QLatin1Char('+'), Qt::SkipEmptyParts).contains(t)) c.types += (c.types.isEmpty() ? QString() : QStringLiteral("+")) + t;
    }
    for (const auto& [key, c] : m_cells)
        if (!m_types.contains(c.types)) m_types.push_back(c.types);
    m_sources.assign(sources.begin(), sources.end());
    m_destinations.assign(destinations.begin(), destinations.end());
    m_highlighted = {-1, -1};
    if (o.slowestLink >= 0 && o.slowestLink < int(o.links.size()))
        m_highlighted = {o.links[std::size_t(o.slowestLink)].src, o.links[std::size_t(o.slowestLink)].dst};
    m_equallySlow.clear();
    for (const int i : o.slowestLinks) m_equallySlow.push_back({o.links[std::size_t(i)].src, o.links[std::size_t(i)].dst});
    if (o.links.empty())
        m_empty->setText(o.source == "trace" ? QStringLiteral("No rank × rank matrix: the traces name no peers of their "
                                                              "communication kernels (Kineto, Nsight). Ascend captures and "
                                                              "simulated cluster runs have one.")
                                             : QStringLiteral("No rank × rank communication in this run."));
    m_stack->setCurrentWidget(o.links.empty() ? static_cast<QWidget*>(m_empty) : m_plot);
    m_metricBox->setEnabled(!o.links.empty());
    redraw();
}

void CommMatrixChart::setMetric(Metric metric) {
    m_metric = metric;
    if (m_metricBox->currentIndex() != int(metric)) m_metricBox->setCurrentIndex(int(metric));
    redraw();
}

double CommMatrixChart::cellValue(std::int64_t src, std::int64_t dst) const {
    const auto it = m_cells.find({src, dst});
    if (it == m_cells.end()) return std::numeric_limits<double>::quiet_NaN();
    const Cell& c = it->second;
    switch (m_metric) {
    case Bandwidth: return c.time_ms > 0 ? c.size_mb / c.time_ms : 0;  // MB/ms = GB/s
    case TransitSize: return c.size_mb;
    case TransitTime: return c.time_ms;
    default: return double(m_types.indexOf(c.types));
    }
}

void CommMatrixChart::redraw() {
    m_plot->clearItems();
    const int nx = int(m_destinations.size()), ny = int(m_sources.size());
    if (nx == 0 || ny == 0) {
        m_map->data()->clear();
        m_plot->replot();
        return;
    }
    // At least two cells each way (QCPColorMapData needs a non-empty range); the extra
    // NaN cell lies outside the axis range.
    const int cx = std::max(nx, 2), cy = std::max(ny, 2);
    m_map->data()->setSize(cx, cy);
    m_map->data()->setRange(QCPRange(0, cx - 1), QCPRange(0, cy - 1));
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    for (int x = 0; x < cx; ++x)
        for (int y = 0; y < cy; ++y) {
            // x: destination, y: source (the source reads down the left like a table's rows).
            const double v = x < nx && y < ny ? cellValue(m_sources[std::size_t(y)], m_destinations[std::size_t(x)])
                                              : std::numeric_limits<double>::quiet_NaN();
            m_map->data()->setCell(x, y, v);
            if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        }
    QCPColorGradient gradient(QCPColorGradient::gpHues);
    if (m_metric == Bandwidth) {  // red (slow) through yellow to green (fast), ColorBrewer RdYlGn
        gradient.setColorStops({{0, QColor(215, 48, 39)}, {0.5, QColor(254, 224, 139)}, {1, QColor(26, 152, 80)}});
    } else if (m_metric != LinkType) {  // light to dark blue: never white, which reads as "no link"
        gradient.setColorStops({{0, QColor(198, 219, 239)}, {1, QColor(8, 81, 156)}});
    } else {  // one distinct colour per link type (a hue gradient wraps: two types were both red)
        static const QColor palette[] = {QColor(52, 120, 198), QColor(230, 126, 34), QColor(39, 174, 96),
                                         QColor(142, 68, 173), QColor(22, 160, 133), QColor(140, 86, 75)};
        const int k = std::max(2, int(m_types.size()));
        QMap<double, QColor> stops;
        for (int i = 0; i < k; ++i) stops[double(i) / (k - 1)] = palette[std::min<int>(i, m_types.size() - 1) % 6];
        gradient.setColorStops(stops);
        gradient.setLevelCount(k);
        hi = std::max(hi, 1.0);  // one type: index 0 at the first stop
    }
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_map->setGradient(gradient);
    // Amounts from zero, so two near-equal links look near-equal; link types by index from 0.
    lo = 0;
    m_map->setDataRange(lo <= hi ? QCPRange(lo, hi > lo ? hi : lo + 1) : QCPRange(0, 1));
    m_scale->axis()->setLabel(QString::fromLatin1(kMetricNames[m_metric]));
    if (m_metric == LinkType) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < m_types.size(); ++i) ticker->addTick(i, m_types[i]);
        m_scale->axis()->setTicker(ticker);
    } else {
        m_scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    auto xTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < nx; ++i) xTicks->addTick(i, QString::number(m_destinations[std::size_t(i)]));
    auto yTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < ny; ++i) yTicks->addTick(i, QString::number(m_sources[std::size_t(i)]));
    m_plot->xAxis->setTicker(xTicks);
    m_plot->yAxis->setTicker(yTicks);
    m_plot->xAxis->setRange(-0.5, nx - 0.5);
    m_plot->yAxis->setRange(-0.5, ny - 0.5);
    const auto column = [&](std::int64_t dst) { return double(std::find(m_destinations.begin(), m_destinations.end(), dst) - m_destinations.begin()); };
    const auto row = [&](std::int64_t src) { return double(std::find(m_sources.begin(), m_sources.end(), src) - m_sources.begin()); };
    if (std::max(nx, ny) <= kLabelledRanks)
        for (const auto& [key, c] : m_cells) {
            auto* text = new QCPItemText(m_plot);
            text->position->setCoords(column(key.second), row(key.first));
            text->setText(cellText(m_metric, cellValue(key.first, key.second), c.types));
            text->setFont(QFont(font().family(), std::max(nx, ny) > 4 ? 7 : 8));
            text->setColor(Qt::black);
            text->setBrush(QColor(255, 255, 255, 170));
        }
    QString tip = QStringLiteral("Rows: source rank, columns: destination rank; empty cells have no link.");
    if (m_highlighted.first >= 0) {
        for (const auto& link : m_equallySlow.empty() ? decltype(m_equallySlow){m_highlighted} : m_equallySlow) {
            const double x = column(link.second), y = row(link.first);
            auto* box = new QCPItemRect(m_plot);
            box->topLeft->setCoords(x - 0.48, y - 0.48);
            box->bottomRight->setCoords(x + 0.48, y + 0.48);
            box->setPen(QPen(Qt::black, m_equallySlow.size() > 8 ? 2 : 3));
        }
        const auto& c = m_cells.at(m_highlighted);
        tip += QStringLiteral("\nSlowest link (black box; %5 link(s) within 0.1% of it): %1 → %2, %3 GB/s over %4")
                   .arg(m_highlighted.first)
                   .arg(m_highlighted.second)
                   .arg(c.time_ms > 0 ? c.size_mb / c.time_ms : 0, 0, 'f', 2)
                   .arg(c.types)
                   .arg(std::max<std::size_t>(1, m_equallySlow.size()));
    }
    m_plot->setToolTip(tip);
    m_plot->replot();
}

}  // namespace npu::views
