#include "views/graph/graph_items.h"

#include "views/graph/fusion_patterns.h"
#include "views/timeline/timeline_palette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

namespace npu::views {

namespace {
const QColor kOpaqueFill(0xE0, 0x3B, 0x3B);
const QColor kBlockFill(0xD8, 0xDE, 0xE9);
}  // namespace

GraphNodeItem::GraphNodeItem(int index, const DisplayItem& item, QSizeF size, bool muted)
    : m_index(index), m_label(item.label), m_sublabel(item.sublabel), m_opaque(item.opaque), m_block(item.block),
      m_size(size) {
    m_fill = item.opaque && !item.block ? kOpaqueFill
             : item.block                ? kBlockFill
             : !item.pattern.isEmpty()   ? patternColor(item.pattern)
                                         : categoryColor(engine::opCategoryName(item.category));
    m_fused = !item.pattern.isEmpty();
    if (muted && !m_fused && !item.block && !item.opaque)
        m_fill = QColor::fromHsv(m_fill.hsvHue(), m_fill.hsvSaturation() / 4, std::min(255, m_fill.value() + 40));
    setFlag(ItemIsSelectable);
    setCacheMode(DeviceCoordinateCache);
    setToolTip(item.label + QStringLiteral("\n") + item.sublabel +
               (item.opaque ? QStringLiteral("\nunsupported op: kept opaque, costed by bytes") : QString()));
}

QSizeF GraphNodeItem::sizeFor(const DisplayItem& item) {
    // Wide enough for the op type; the node name is elided to the same width.
    const double chars = std::max<double>(8, std::min<double>(item.label.size(), 28));
    return {chars * 7.0 + 24.0, item.block ? 40.0 : 34.0};
}

QRectF GraphNodeItem::boundingRect() const {
    return QRectF(-m_size.width() / 2 - 4, -m_size.height() / 2 - 4, m_size.width() + 8, m_size.height() + 8);
}

void GraphNodeItem::setHighlighted(bool on) {
    m_highlighted = on;
    update();
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF r(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    // Highlighted (a fused node's members, a pass's products): a thick orange frame that
    // reads at any zoom; selected: blue.
    if (m_highlighted) {
        painter->setPen(QPen(QColor(0xFF, 0x6D, 0x00), 5.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(r.adjusted(-1, -1, 1, 1), 5, 5);
    }
    QPen pen(isSelected() ? QColor(0x1F, 0x6F, 0xEB) : (m_opaque ? QColor(0x90, 0, 0) : QColor(0x55, 0x55, 0x55)));
    pen.setWidthF(isSelected() || m_opaque ? 2.5 : (m_fused ? 2.0 : 1.0));  // fused kernels stand out
    if (m_block) pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(m_fill);
    painter->drawRoundedRect(r, 4, 4);
    // Text only when readable: at low zoom the boxes and colours carry the structure.
    if (option->levelOfDetailFromTransform(painter->worldTransform()) < 0.35) return;
    painter->setPen(textColorOn(m_fill));
    QFont f = painter->font();
    f.setPointSizeF(8.5);
    f.setBold(true);
    painter->setFont(f);
    const QRectF top(r.left() + 4, r.top() + 1, r.width() - 8, r.height() / 2);
    painter->drawText(top, Qt::AlignCenter, QFontMetricsF(f).elidedText(m_label, Qt::ElideRight, top.width()));
    f.setBold(false);
    f.setPointSizeF(7);
    painter->setFont(f);
    const QRectF bottom(r.left() + 4, r.center().y(), r.width() - 8, r.height() / 2 - 1);
    painter->drawText(bottom, Qt::AlignCenter, QFontMetricsF(f).elidedText(m_sublabel, Qt::ElideMiddle, bottom.width()));
}

GraphEdgeItem::GraphEdgeItem(const QPainterPath& path, const QString& tooltip) : QGraphicsPathItem(path) {
    setPen(QPen(QColor(0x80, 0x80, 0x80), 1.0));
    setToolTip(tooltip);
    setAcceptHoverEvents(true);
    setZValue(-1);
}

void GraphEdgeItem::hoverEnterEvent(QGraphicsSceneHoverEvent*) { setPen(QPen(QColor(0x1F, 0x6F, 0xEB), 2.5)); }
void GraphEdgeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) { setPen(QPen(QColor(0x80, 0x80, 0x80), 1.0)); }

QPainterPath GraphEdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    return stroker.createStroke(path());
}

}  // namespace npu::views
