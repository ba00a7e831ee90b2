// The parts of a frame drawn over the tracks: the track-name gutter and the time ruler.
#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_renderer.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace npu::views {

QString groupHeaderLabel(const TimelineGroup& g, bool underNode)
{
    QString label = QString::fromStdString(g.name);
    if (underNode && g.node >= 0 && profiler::nodeInDeviceName(g.name) == g.node) {
        if (const qsizetype dot = label.indexOf(QStringLiteral(" · ")); dot > 0)
            label = label.mid(dot + 3);
    }
    if (!g.kind.empty())
        label += QStringLiteral("  (%1)").arg(QString::fromStdString(g.kind));
    return label;
}

QString nodeHeaderLabel(const TimelineData& data, int node)
{
    const profiler::DeviceNodes& nodes = data.nodes();
    QString label = QStringLiteral("node %1").arg(node);
    if (const auto host = nodes.hostOfNode.find(node); host != nodes.hostOfNode.end())
        label += QStringLiteral(" · ") + QString::fromStdString(host->second);
    const auto ranks = nodes.ranksOfNode.find(node);
    const int n = ranks == nodes.ranksOfNode.end() ? 0 : ranks->second;
    return label + (n == 1 ? QStringLiteral(" · 1 rank") : QStringLiteral(" · %1 ranks").arg(n));
}

namespace {

// A drawn triangle rather than a glyph: font coverage of ▸/▾ varies.
void paintFoldTriangle(QPainter& p, double cx, double cy, bool collapsed)
{
    QPolygonF tri;
    if (collapsed)
        tri << QPointF(cx - 3, cy - 5) << QPointF(cx + 4, cy) << QPointF(cx - 3, cy + 5);
    else
        tri << QPointF(cx - 5, cy - 3) << QPointF(cx + 5, cy - 3) << QPointF(cx, cy + 4);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(60, 64, 80));
    p.drawPolygon(tri);
    p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace

void TimelineRenderer::paintGutter(QPainter& p, const TimelineFrame& f)
{
    p.save();
    p.setClipRect(0, f.rulerHeight, f.gutterWidth, f.height - f.rulerHeight);
    p.fillRect(0, f.rulerHeight, f.gutterWidth, f.height - f.rulerHeight, QColor(236, 238, 243));
    // Scrolling rows first, below the pinned area; then the pinned rows.
    for (const bool pinnedPass : {false, true}) {
    const int clipTop = f.rulerHeight + (pinnedPass ? 0 : f.layout->pinnedHeight);
    p.setClipRect(0, clipTop, f.gutterWidth, std::max(0, f.height - clipTop));
    const QFont normal = p.font();
    const QFontMetrics fm(normal);
    QFont bold = normal;
    bold.setBold(true);
    const QFontMetrics fmBold(bold);
    for (const LayoutRow& row : f.layout->rows) {
        const int top = f.rulerHeight + f.layout->areaTop(row, f.scrollY);
        if (row.pinned != pinnedPass || top + row.height < clipTop || top > f.height)
            continue;
        if (row.kind == LayoutRow::Kind::group && row.group < 0) {
            p.fillRect(0, top, f.gutterWidth, row.height, QColor(206, 212, 232));
            p.setFont(bold);
            p.setPen(QColor(30, 32, 40));
            p.drawText(QRect(8, top, f.gutterWidth - 12, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("Pinned"));
            p.setFont(normal);
            continue;
        }
        // Under a node header, its devices and their tracks sit one step to the right.
        const int indent = row.node >= 0 && f.data->multiNode() && !row.pinned ? kNodeIndent : 0;
        if (row.kind == LayoutRow::Kind::node) {
            p.fillRect(0, top, f.gutterWidth, row.height, QColor(196, 203, 224));
            paintFoldTriangle(p, 10, top + row.height / 2.0, f.collapsedNodes && f.collapsedNodes->count(row.node));
            p.setFont(bold);
            p.setPen(QColor(20, 22, 32));
            p.drawText(QRect(20, top, f.gutterWidth - 24, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       fmBold.elidedText(nodeHeaderLabel(*f.data, row.node), Qt::ElideRight, f.gutterWidth - 24));
            p.setFont(normal);
            if (row.y > 0) {  // where one node ends and the next begins
                p.setPen(QColor(120, 124, 140));
                p.drawLine(0, top, f.gutterWidth, top);
            }
            continue;
        }
        if (indent > 0)  // the node's band down the left edge, as a tree's guide line
            p.fillRect(3, top, 3, row.height, QColor(176, 184, 212));
        if (row.kind == LayoutRow::Kind::group) {
            const TimelineGroup& g = f.data->groups()[static_cast<std::size_t>(row.group)];
            p.fillRect(indent, top, f.gutterWidth - indent, row.height, QColor(214, 218, 230));
            paintFoldTriangle(p, indent + 10, top + row.height / 2.0, f.collapsed && f.collapsed->count(g.deviceId));
            const QString label = groupHeaderLabel(g, indent > 0);
            const int textW = f.gutterWidth - 24 - indent;
            p.setFont(bold);
            p.setPen(QColor(30, 32, 40));
            p.drawText(QRect(indent + 20, top, textW, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       fmBold.elidedText(label, Qt::ElideRight, textW));
            p.setFont(normal);
            continue;
        }
        const TimelineTrack& tr = f.data->tracks()[static_cast<std::size_t>(row.track)];
        QString name = QString::fromStdString(tr.row.name);
        if (row.pinned)  // out of its group: say whose it is
            name = QString::fromStdString(f.data->groups()[static_cast<std::size_t>(row.group)].name) +
                   QStringLiteral(" · ") + name;
        p.setPen(QColor(40, 42, 52));
        p.drawText(QRect(14 + indent, top + f.metrics.trackPadding, f.gutterWidth - 18 - indent, f.metrics.rowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(name, Qt::ElideMiddle, f.gutterWidth - 18 - indent));
        p.setPen(QColor(0, 0, 0, 30));
        p.drawLine(0, top + row.height - 1, f.gutterWidth, top + row.height - 1);
    }
    }
    p.setClipRect(0, f.rulerHeight, f.gutterWidth, f.height - f.rulerHeight);
    if (f.layout->pinnedHeight > 0) {
        p.setPen(QPen(QColor(120, 124, 140), 2));
        p.drawLine(0, f.rulerHeight + f.layout->pinnedHeight - 1, f.gutterWidth, f.rulerHeight + f.layout->pinnedHeight - 1);
    }
    p.setPen(QColor(170, 174, 190));
    p.drawLine(f.gutterWidth - 1, f.rulerHeight, f.gutterWidth - 1, f.height);
    p.restore();
}

void TimelineRenderer::paintRuler(QPainter& p, const TimelineFrame& f)
{
    p.save();
    p.fillRect(0, 0, f.width, f.rulerHeight, QColor(244, 245, 248));
    p.setPen(QColor(170, 174, 190));
    p.drawLine(0, f.rulerHeight - 1, f.width, f.rulerHeight - 1);
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    const RulerScale scale = chooseRulerScale(f.t0 - f.rulerOrigin, f.t1 - f.rulerOrigin, f.plotWidth);
    p.setClipRect(f.gutterWidth, 0, f.plotWidth, f.rulerHeight);
    // Minor ticks at a fifth (or half, for 2-steps) of the major step.
    const std::int64_t minor = scale.step % 5 == 0 || scale.step == 1 ? std::max<std::int64_t>(1, scale.step / 5)
                                                                    : scale.step / 2;
    std::int64_t firstMinor = scale.firstTick - scale.step;
    for (std::int64_t t = firstMinor; t <= f.t1 - f.rulerOrigin; t += minor) {
        const double x = f.gutterWidth + (t + f.rulerOrigin - f.t0) * pxPerNs;
        const bool major = (t % scale.step) == 0;
        p.setPen(QColor(120, 124, 140));
        p.drawLine(QPointF(x, f.rulerHeight - (major ? 10 : 5)), QPointF(x, f.rulerHeight - 1));
        if (major)
            p.drawText(QRectF(x + 3, 2, 200, f.rulerHeight - 12), Qt::AlignLeft | Qt::AlignVCenter,
                       formatTick(t, scale));
    }
    if (f.hasRange) {
        // The selected range's duration, centred over it.
        const double x0 = f.gutterWidth + (f.range0 - f.t0) * pxPerNs;
        const double x1 = f.gutterWidth + (f.range1 - f.t0) * pxPerNs;
        const QString text = formatDuration(f.range1 - f.range0);
        const QFontMetrics fm(p.font());
        const double w = fm.horizontalAdvance(text) + 12;
        const QRectF box((x0 + x1) / 2 - w / 2, 2, w, f.rulerHeight - 6);
        p.fillRect(box, QColor(40, 110, 230));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
    }
    if (f.cursorX >= 0 && f.cursorX < f.plotWidth && !f.hasRange) {
        // Where the mouse is, in ruler time: the readout Perfetto users expect.
        const std::int64_t t = f.t0 + static_cast<std::int64_t>(f.cursorX / pxPerNs) - f.rulerOrigin;
        int maxDecimals = 0;
        for (std::int64_t u = scale.unit; u > 1; u /= 10)
            ++maxDecimals;
        const QString text =
            formatTick(t, RulerScale{scale.step, 0, scale.unit, std::min(scale.decimals + 2, maxDecimals)});
        const QFontMetrics fm(p.font());
        const double w = fm.horizontalAdvance(text) + 10;
        const double x = std::min<double>(f.gutterWidth + f.cursorX + 1, f.width - w);
        const QRectF box(x, 2, w, f.rulerHeight - 6);
        p.fillRect(box, QColor(60, 64, 80));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
    }
    p.restore();
    paintFlagsOnRuler(p, f);
    // The corner above the gutter: the ruler's unit and origin.
    p.fillRect(0, 0, f.gutterWidth, f.rulerHeight - 1, QColor(236, 238, 243));
    p.setPen(QColor(90, 94, 110));
    p.drawText(QRect(8, 0, f.gutterWidth - 12, f.rulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               QStringLiteral("time from %1").arg(f.rulerOrigin == f.data->startNs() ? QStringLiteral("trace start")
                                                                                      : QStringLiteral("aligned point")));
    p.setPen(QColor(170, 174, 190));
    p.drawLine(f.gutterWidth - 1, 0, f.gutterWidth - 1, f.rulerHeight);
}

}  // namespace npu::views
