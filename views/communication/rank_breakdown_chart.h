#pragma once
// Per-rank stacked bars after MindStudio Insight's Communication overview: Computing,
// Overlapped, Communication (not overlapped), Free and Bubble, stacked so a bar is the
// rank's step (imports: E2E; simulations: the iteration), with the communication /
// computation ratio per rank as a line on the right axis. The figures are the
// profiler's (profiler::communicationOverview); this widget only draws them. The
// slowest rank (the one the others wait on: profiler::RankBreakdown::ownWorkMs) is boxed
// in red. Vertical (the Communication tab) or horizontal, ranks top to bottom (the
// Summary's step breakdown, without the ratio line). Tick labels thin out and the legend
// rewraps to the width the chart gets, so 1280x720 shows neither "rank 0rank 1" nor
// "Computin".

#include "profiler/analysis/communication_overview.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPAxis;

namespace npu::views {

class RankBreakdownChart : public QWidget {
    Q_OBJECT
public:
    // Bottom to top. Computing is drawn without its overlapped part, which sits on it, so
    // the two together are the rank's computing time; imports draw Communication (not
    // overlapped) without the receives that make up Bubble.
    enum Segment { Computing, Overlapped, CommunicationNotOverlapped, Free, Bubble, SegmentCount };

    explicit RankBreakdownChart(QWidget* parent = nullptr, Qt::Orientation orientation = Qt::Vertical);
    void setOverview(const profiler::CommunicationOverview& overview);
    int rankCount() const { return int(m_ranks.size()); }

    // What is drawn, for tests: a segment's height on the bar of ranks()[index], in ms.
    double segmentValue(Segment segment, int index) const;
    double ratioValue(int index) const;           // the ratio line's point
    std::int64_t highlightedRank() const { return m_highlighted; }  // -1: none
    QCustomPlot* plot() const { return m_plot; }

    // The hover text of the bar at index (every figure of the rank).
    QString rankToolTip(int index) const;
    // The rank axis' tick labels as drawn ("" where thinned out), and the legend's columns.
    QStringList rankTickLabels() const;
    int legendColumns() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // Labels and legend wrap for the width (height, horizontal) the plot has now.
    void fitToSize();
    QCPAxis* rankAxis() const;
    QCPAxis* timeAxis() const;

    Qt::Orientation m_orientation;
    std::vector<profiler::RankBreakdown> m_ranks;
    bool m_bubbleInCommunication = false;
    QString m_slowestTip;
    QCustomPlot* m_plot;
    QCPBars* m_bars[SegmentCount] = {};
    QCPGraph* m_ratio = nullptr;
    std::int64_t m_highlighted = -1;
};

}  // namespace npu::views
