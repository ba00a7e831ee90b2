#include "views/graph/graph_node_details.h"

#include "engine/ir/op_registry.h"
#include "views/common/units.h"

#include <QLocale>

#include <QStringList>

namespace npu::views {

using namespace npu::engine;

namespace {

QString attrText(const AttrValue& v) {
    if (auto p = std::get_if<std::int64_t>(&v)) return QString::number(*p);
    if (auto p = std::get_if<double>(&v)) return QString::number(*p, 'g', 6);
    if (auto p = std::get_if<std::string>(&v)) return QString::fromStdString(*p).toHtmlEscaped();
    QStringList parts;
    if (auto p = std::get_if<std::vector<std::int64_t>>(&v))
        for (auto x : *p) parts << QString::number(x);
    if (auto p = std::get_if<std::vector<double>>(&v))
        for (auto x : *p) parts << QString::number(x, 'g', 6);
    if (parts.size() > 16) {
        parts = parts.mid(0, 16);
        parts << QStringLiteral("...");
    }
    return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QString count(std::int64_t v) { return QLocale(QLocale::English, QLocale::UnitedStates).toString(static_cast<qlonglong>(v)); }

QString tensorRow(const Graph& g, int id) {
    if (id < 0) return QStringLiteral("<tr><td colspan=3><i>(omitted)</i></td></tr>");
    const Tensor& t = g.tensor(id);
    return QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3 %4</td></tr>")
        .arg(QString::fromStdString(t.name).toHtmlEscaped(), shapeText(t),
             QString::fromUtf8(dtypeName(t.dtype).data(), static_cast<int>(dtypeName(t.dtype).size())),
             QString::fromUtf8(tensorRoleName(t.role).data(), static_cast<int>(tensorRoleName(t.role).size())));
}

}  // namespace

QString shapeText(const Tensor& t) {
    QStringList dims;
    for (size_t i = 0; i < t.shape.size(); ++i) {
        const bool named = i < t.symbolicDims.size() && !t.symbolicDims[i].empty();
        dims << (t.shape[i] >= 0 ? QString::number(t.shape[i])
                                 : (named ? QString::fromStdString(t.symbolicDims[i]) : QStringLiteral("?")));
    }
    return QStringLiteral("[") + dims.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QString nodeDetailsHtml(const Graph& graph, const DisplayItem& item) {
    QString html;
    if (item.block) {
        std::int64_t flops = 0, bytes = 0;
        for (int id : item.nodes) {
            const auto c = OpRegistry::instance().cost(graph, graph.node(id));
            flops += static_cast<std::int64_t>(c.flops);
            bytes += static_cast<std::int64_t>(c.bytes());
        }
        // The units every other view prints (base/units), not a bare 12-digit integer.
        html += QStringLiteral("<h3>Block %1</h3><p>%2 ops, %3, %4</p>")
                    .arg(item.label.toHtmlEscaped(), QString::number(item.nodes.size()), formatFlops(double(flops)),
                         formatBytes(double(bytes)));
        html += QStringLiteral("<p>Double-click to expand.</p>");
        return html;
    }
    const Node& n = graph.node(item.nodes.front());
    const auto c = OpRegistry::instance().cost(graph, n);
    html += QStringLiteral("<h3>%1</h3><p><b>%2</b>").arg(QString::fromStdString(n.name).toHtmlEscaped(),
                                                           QString::fromStdString(n.op).toHtmlEscaped());
    if (!n.block.empty()) html += QStringLiteral(" in block %1").arg(QString::fromStdString(n.block).toHtmlEscaped());
    html += QStringLiteral("</p>");
    if (n.opaque)
        html += QStringLiteral("<p style='color:#c00'><b>Unsupported op</b>: kept as an opaque node, costed by its bytes only.</p>");
    // The registry's cost carries exact MACs for every op (Linear, attention, fused ops).
    const auto dtype = dtypeName(n.dtype);
    // FLOPs in units with the exact count beside (as the timeline's details show them).
    html += QStringLiteral("<p>runs in <b>%1</b><br>FLOPs %2 &nbsp; MACs %3<br>bytes read %4, written %5%6</p>")
                .arg(QString::fromUtf8(dtype.data(), static_cast<int>(dtype.size())),
                     formatFlops(c.flops) + QStringLiteral(" (%1)").arg(count(static_cast<std::int64_t>(c.flops))),
                     count(static_cast<std::int64_t>(c.macs)), count(static_cast<std::int64_t>(c.bytesRead)),
                     count(static_cast<std::int64_t>(c.bytesWritten)),
                     OpRegistry::instance().isShapeOnly(n) ? QStringLiteral("<br><i>shape-only: no run-time cost</i>") : QString());
    html += QStringLiteral("<h4>Inputs</h4><table>");
    for (int t : n.inputs) html += tensorRow(graph, t);
    html += QStringLiteral("</table><h4>Outputs</h4><table>");
    for (int t : n.outputs) html += tensorRow(graph, t);
    html += QStringLiteral("</table>");
    if (!n.attrs.empty()) {
        html += QStringLiteral("<h4>Attributes</h4><table>");
        for (const auto& [k, v] : n.attrs)
            html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(QString::fromStdString(k).toHtmlEscaped(), attrText(v));
        html += QStringLiteral("</table>");
    }
    return html;
}

}  // namespace npu::views
