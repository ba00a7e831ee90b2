#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/communication/rank_breakdown_chart.h"
#include "views/charts/legend_wrap.h"

#include "views/common/units.h"

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace npu::views {
namespace {

// MindStudio Insight's colours for the same series, roughly: compute blue, overlap teal,
// exposed communication orange, free grey, bubble light red.
struct SegmentStyle {
    const char* name;
    QColor color;
};
const SegmentStyle kSegments[] = {{"Computing", QColor(52, 120, 198)},
                                  {"Overlapped", QColor(22, 160, 133)},
                                  {"Communication (not overlapped)", QColor(230, 126, 34)},
                                  {"Free", QColor(170, 170, 170)},
                                  {"Bubble", QColor(231, 120, 110)}};

// Up to this many bars carry their whole label ("rank 3", "rank 8 (stage 1, ×8)").
constexpr std::size_t kLabelledBars = 8;

}  // namespace

RankBreakdownChart::RankBreakdownChart(QWidget* parent, Qt::Orientation orientation) : QWidget(parent), m_orientation(orientation) {
    m_plot = new QCustomPlot(this);
    const bool horizontal = orientation == Qt::Horizontal;
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, horizontal ? QStringLiteral("Step breakdown per rank") : QStringLiteral("Time per rank"),
                                                               QFont(font().family(), 10, QFont::Bold)));
    timeAxis()->setLabel(QStringLiteral("time (ms)"));
    if (!horizontal) {
        m_plot->yAxis2->setVisible(true);
        m_plot->yAxis2->setLabel(QStringLiteral("communication / computation"));
    } else {
        rankAxis()->setRangeReversed(true);  // rank 0 on top, as a table reads
    }
    // The legend goes under the plot, wrapped to the width (fitToSize): inside, it hid the
    // bars; three fixed columns clipped "Computin" at 1280x720.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(2, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    QCPBars* below = nullptr;
    for (int s = 0; s < SegmentCount; ++s) {
        auto* bars = new QCPBars(rankAxis(), timeAxis());
        bars->setName(QString::fromLatin1(kSegments[s].name));
        bars->setBrush(kSegments[s].color);
        bars->setPen(QPen(kSegments[s].color.darker(130)));
        bars->setWidth(0.6);
        if (below) bars->moveAbove(below);
        below = bars;
        m_bars[s] = bars;
    }
    if (!horizontal) {
        m_ratio = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
        m_ratio->setName(QStringLiteral("Communication / computation"));
        m_ratio->setPen(QPen(QColor(120, 40, 140), 2));
        m_ratio->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    }
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const double key = m_orientation == Qt::Horizontal ? rankAxis()->pixelToCoord(e->position().y()) : rankAxis()->pixelToCoord(e->position().x());
        const int i = int(std::lround(key));
        const bool onBar = i >= 0 && i < int(m_ranks.size()) && std::abs(key - i) <= 0.3 && m_plot->axisRect()->rect().contains(e->pos());
        QToolTip::showText(e->globalPosition().toPoint(), onBar ? rankToolTip(i) : m_slowestTip, m_plot);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(320, horizontal ? 160 : 240);
}

QCPAxis* RankBreakdownChart::rankAxis() const { return m_orientation == Qt::Horizontal ? m_plot->yAxis : m_plot->xAxis; }
QCPAxis* RankBreakdownChart::timeAxis() const { return m_orientation == Qt::Horizontal ? m_plot->xAxis : m_plot->yAxis; }

void RankBreakdownChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitToSize();
}

void RankBreakdownChart::fitToSize() {
    wrapLegendToWidth(m_plot->legend, width() - 20, 40, 3, 3);  // 40: icon and spacing
    // Rank ticks: the whole label where every one fits its bar's room, else the rank
    // number, every k-th when even numbers would touch.
    const bool horizontal = m_orientation == Qt::Horizontal;
    const QFontMetrics tickFm(rankAxis()->tickLabelFont());
    const int n = int(m_ranks.size());
    const double room = n > 0 ? (horizontal ? std::max(40, height() - 90) : std::max(40, width() - 150)) / double(n) : 0;
    int fullWidth = 0, numberWidth = 0;
    for (const auto& r : m_ranks) {
        fullWidth = std::max(fullWidth, tickFm.horizontalAdvance(QString::fromStdString(r.label)) + 8);
        numberWidth = std::max(numberWidth, tickFm.horizontalAdvance(QString::number(r.rank)) + 8);
    }
    // Horizontal bars stack labels vertically: a line's height is what must fit.
    const int lineHeight = tickFm.height() + 2;
    const bool full = horizontal ? (room >= lineHeight && fullWidth <= 200) : (room >= fullWidth && n <= int(kLabelledBars));
    const int need = horizontal ? lineHeight : numberWidth;
    const int every = full || room <= 0 ? 1 : std::max(1, int(std::ceil(need / room)));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) {
        const auto& r = m_ranks[std::size_t(i)];
        ticker->addTick(double(i), full ? QString::fromStdString(r.label) : (i % every == 0 ? QString::number(r.rank) : QString()));
    }
    rankAxis()->setTicker(ticker);
    rankAxis()->setLabel(full ? QString() : QStringLiteral("rank"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QStringList RankBreakdownChart::rankTickLabels() const {
    QStringList labels;
    auto ticker = rankAxis()->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) return labels;
    for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) labels << it.value();
    return labels;
}

int RankBreakdownChart::legendColumns() const { return m_plot->legend->wrap(); }

void RankBreakdownChart::setOverview(const profiler::CommunicationOverview& o) {
    m_plot->clearItems();
    m_ranks = o.ranks;
    m_bubbleInCommunication = o.bubbleInCommunication;
    QVector<double> keys;
    QVector<double> values[SegmentCount];
    QVector<double> ratios;
    double top = 0, topRatio = 0;
    for (std::size_t i = 0; i < o.ranks.size(); ++i) {
        const auto& r = o.ranks[i];
        const double key = double(i);
        keys.push_back(key);
        const double exposed = o.bubbleInCommunication ? std::max(0.0, r.comm_not_overlapped_ms - r.bubble_ms) : r.comm_not_overlapped_ms;
        values[Computing].push_back(std::max(0.0, r.computing_ms - r.overlapped_ms));
        values[Overlapped].push_back(r.overlapped_ms);
        values[CommunicationNotOverlapped].push_back(exposed);
        values[Free].push_back(r.free_ms);
        values[Bubble].push_back(r.bubble_ms);
        ratios.push_back(r.comm_ratio);
        double total = 0;
        for (int s = 0; s < SegmentCount; ++s) total += values[s].back();
        top = std::max(top, total);
        topRatio = std::max(topRatio, r.comm_ratio);
    }
    for (int s = 0; s < SegmentCount; ++s) m_bars[s]->setData(keys, values[s], true);
    if (m_ratio) m_ratio->setData(keys, ratios, true);
    fitToSize();  // the rank axis' labels, for the room each bar has
    rankAxis()->setRange(-0.7, std::max<double>(0.7, double(o.ranks.size()) - 0.3));
    timeAxis()->setRange(0, top > 0 ? top * 1.18 : 1);
    if (m_ratio) m_plot->yAxis2->setRange(0, topRatio > 0 ? topRatio * 1.18 : 1);

    m_highlighted = -1;
    if (o.slowestRank >= 0 && o.slowestRank < int(o.ranks.size())) {
        const auto& r = o.ranks[std::size_t(o.slowestRank)];
        m_highlighted = r.rank;
        // One box around each run of neighbouring equally slow bars (a pipeline stage's ranks).
        const auto heightAt = [&](int i) {
            double h = 0;
            for (int s = 0; s < SegmentCount; ++s) h += values[s][i];
            return h;
        };
        const auto& slow = o.slowestRanks.empty() ? std::vector<int>{o.slowestRank} : o.slowestRanks;
        for (std::size_t a = 0; a < slow.size();) {
            std::size_t b = a;
            double height = heightAt(slow[a]);
            while (b + 1 < slow.size() && slow[b + 1] == slow[b] + 1) height = std::max(height, heightAt(slow[++b]));
            auto* box = new QCPItemRect(m_plot);
            box->topLeft->setAxes(rankAxis(), timeAxis());
            box->bottomRight->setAxes(rankAxis(), timeAxis());
            box->topLeft->setCoords(slow[a] - 0.4, height + top * 0.02);
            box->bottomRight->setCoords(slow[b] + 0.4, 0);
            box->setPen(QPen(QColor(200, 30, 30), 2));
            auto* label = new QCPItemText(m_plot);
            label->position->setAxes(rankAxis(), timeAxis());
            label->position->setCoords((slow[a] + slow[b]) / 2.0, height + top * 0.03);
            label->setPositionAlignment(m_orientation == Qt::Horizontal ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignHCenter | Qt::AlignBottom));
            label->setText(QStringLiteral("slowest"));
            label->setColor(QColor(200, 30, 30));
            a = b + 1;
        }
        const QString tip = QStringLiteral("Slowest rank (the one the others wait on): %1 — own work %2 = computing %3 + "
                                           "communication not overlapped %4 - waiting for other ranks %5")
                                .arg(QString::fromStdString(r.label), formatDuration(r.ownWorkMs() * 1e6), formatDuration(r.computing_ms * 1e6),
                                     formatDuration(r.comm_not_overlapped_ms * 1e6), formatDuration(r.wait_ms * 1e6));
        m_slowestTip = tip;
    } else {
        m_slowestTip.clear();
    }
    m_plot->replot();
}

double RankBreakdownChart::segmentValue(Segment segment, int index) const {
    const auto data = m_bars[segment]->data();
    auto it = data->findBegin(double(index), false);
    return it != data->constEnd() && qFuzzyCompare(it->key + 1, double(index) + 1) ? it->value : 0;
}

QString RankBreakdownChart::rankToolTip(int index) const {
    if (index < 0 || index >= int(m_ranks.size())) return {};
    const auto& r = m_ranks[std::size_t(index)];
    const auto ms = [](double v) { return formatDuration(v * 1e6); };
    QString text = QStringLiteral("%1\nComputing %2 (overlapped %3)\nCommunication %4 (not overlapped %5)\nFree %6\nBubble %7%8\n"
                                  "Communication / computation %9")
                       .arg(QString::fromStdString(r.label), ms(r.computing_ms), ms(r.overlapped_ms), ms(r.communication_ms),
                            ms(r.comm_not_overlapped_ms), ms(r.free_ms), ms(r.bubble_ms),
                            m_bubbleInCommunication ? QStringLiteral(" (pipeline receives, part of communication)") : QString(),
                            QString::number(r.comm_ratio, 'f', 3));
    if (r.wait_ms > 0) text += QStringLiteral("\nWaiting for other ranks %1 (own work %2)").arg(ms(r.wait_ms), ms(r.ownWorkMs()));
    if (r.represents > 1) text += QStringLiteral("\nstands for %1 ranks doing the same work").arg(r.represents);
    return text;
}

double RankBreakdownChart::ratioValue(int index) const {
    if (!m_ratio) return 0;
    const auto data = m_ratio->data();
    auto it = data->findBegin(double(index), false);
    return it != data->constEnd() && qFuzzyCompare(it->key + 1, double(index) + 1) ? it->value : 0;
}

}  // namespace npu::views
