#include "views/graph/graph_canvas.h"

#include "views/graph/graph_items.h"

#include <QMouseEvent>
#include <QWheelEvent>

namespace npu::views {

GraphCanvas::GraphCanvas(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent) {
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(QColor(0xFA, 0xFA, 0xFA));
}

void GraphCanvas::zoomBy(double factor) {
    const double current = transform().m11();
    const double next = std::clamp(current * factor, 0.02, 4.0);
    scale(next / current, next / current);
}

void GraphCanvas::fitAll() {
    if (!scene() || scene()->items().isEmpty()) return;
    fitInView(scene()->itemsBoundingRect(), Qt::KeepAspectRatio);
    // A deep model fitted whole is unreadable; start at a zoom where boxes are visible.
    if (transform().m11() < 0.3) {
        resetTransform();
        scale(0.5, 0.5);
        centerOn(scene()->itemsBoundingRect().center().x(), scene()->itemsBoundingRect().top());
    }
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
    zoomBy(event->angleDelta().y() > 0 ? 1.2 : 1.0 / 1.2);
    event->accept();
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    for (QGraphicsItem* item : items(event->pos()))
        if (auto* node = dynamic_cast<GraphNodeItem*>(item)) {
            emit itemDoubleClicked(node->index());
            return;
        }
    QGraphicsView::mouseDoubleClickEvent(event);
}

}  // namespace npu::views
