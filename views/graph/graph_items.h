#pragma once
// Scene items of the graph view: a box per op (or collapsed block) coloured by op
// category, opaque (unsupported) ops in red; an edge per tensor with its shape as a
// hover tooltip.

#include <QGraphicsItem>
#include <QGraphicsPathItem>

#include "views/graph/graph_display_model.h"

namespace npu::views {

class GraphNodeItem : public QGraphicsItem {
public:
    // `muted`: drawn pale (unfused ops in a graph after passes, so fused kernels stand out).
    GraphNodeItem(int index, const DisplayItem& item, QSizeF size, bool muted = false);
    int index() const { return m_index; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    void setHighlighted(bool on);
    bool highlighted() const { return m_highlighted; }

    static QSizeF sizeFor(const DisplayItem& item);

private:
    int m_index;
    QString m_label, m_sublabel;
    QColor m_fill;
    bool m_opaque, m_block, m_fused = false, m_highlighted = false;
    QSizeF m_size;
};

class GraphEdgeItem : public QGraphicsPathItem {
public:
    GraphEdgeItem(const QPainterPath& path, const QString& tooltip);

protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    QPainterPath shape() const override;  // a wider band than the 1 px line, for hovering
};

}  // namespace npu::views
