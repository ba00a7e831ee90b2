// MemoryChart's time selection: a click on the chart selects that instant, Shift+drag a
// range (QCustomPlot's selection rectangle, on only while Shift is held so a plain drag
// still pans); the selection is marked on the chart and the blocks panel lists the
// blocks live there.
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/memory_blocks_panel.h"
#include "views/charts/memory_chart.h"

namespace npu::views {

namespace {
constexpr int kClickSlopPx = 4;  // a press and release closer than this is a click
const QColor kSelection(41, 128, 185);
}  // namespace

void MemoryChart::buildSelection() {
    // Before QCustomPlot handles the press: Shift turns the drag into a range selection.
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        m_pressPos = e->pos();
        const bool range = e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier);
        m_plot->setSelectionRectMode(range ? QCP::srmCustom : QCP::srmNone);
    });
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect& rect, QMouseEvent*) {
        m_plot->setSelectionRectMode(QCP::srmNone);
        if (m_series.empty() || rect.width() < kClickSlopPx) return;
        selectTimes(timeOf(m_plot->xAxis->pixelToCoord(rect.left())), timeOf(m_plot->xAxis->pixelToCoord(rect.right())));
    });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton || (e->modifiers() & Qt::ShiftModifier) || m_series.empty()) return;
        if ((e->pos() - m_pressPos).manhattanLength() > kClickSlopPx) return;  // a pan
        if (!m_plot->axisRect()->rect().contains(e->pos())) return;
        const std::int64_t t = timeOf(m_plot->xAxis->pixelToCoord(e->position().x()));
        selectTimes(t, t);
    });
    m_plot->selectionRect()->setPen(QPen(kSelection, 1, Qt::DashLine));
    m_plot->selectionRect()->setBrush(QColor(kSelection.red(), kSelection.green(), kSelection.blue(), 40));
    connect(m_blocks, &MemoryBlocksPanel::sliceRequested, this, &MemoryChart::sliceActivated);
    connect(m_blocks, &MemoryBlocksPanel::timeRequested, this, &MemoryChart::timeActivated);
}

void MemoryChart::selectTimes(std::int64_t from_ns, std::int64_t to_ns) {
    if (m_series.empty()) return;
    m_selFrom = std::clamp(std::min(from_ns, to_ns), m_t0, m_t1);
    m_selTo = std::clamp(std::max(from_ns, to_ns), m_t0, m_t1);
    drawSelection();
    m_blocks->setSelection(m_selFrom, m_selTo);
    if (!m_blocks->isHidden()) m_details->setCurrentWidget(m_blocksPage);  // what the click asked for
}

void MemoryChart::clearTimeSelection() {
    m_selFrom = m_selTo = -1;
    drawSelection();
    m_blocks->clearSelection();
}

void MemoryChart::drawSelection() {
    if (!m_selectionBox) {
        m_selectionBox = new QCPItemRect(m_plot);
        m_selectionBox->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_selectionBox->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_selectionBox->setPen(QPen(kSelection, 1));
        m_selectionBox->setBrush(QColor(kSelection.red(), kSelection.green(), kSelection.blue(), 35));
        m_selectionBox->setSelectable(false);
        m_selectionLine = new QCPItemStraightLine(m_plot);
        m_selectionLine->setPen(QPen(kSelection, 1.5));
        m_selectionLine->setSelectable(false);
    }
    const bool any = m_selFrom >= 0;
    const bool instant = any && m_selFrom == m_selTo;
    m_selectionBox->setVisible(any && !instant);
    m_selectionLine->setVisible(instant);
    if (any) {
        m_selectionBox->topLeft->setCoords(axisOf(m_selFrom), 0);
        m_selectionBox->bottomRight->setCoords(axisOf(m_selTo), 1);
        m_selectionLine->point1->setCoords(axisOf(m_selFrom), 0);
        m_selectionLine->point2->setCoords(axisOf(m_selFrom), 1);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace npu::views
