#include "views/graph/fused_node_details.h"

#include "engine/ir/op_registry.h"
#include "views/common/units.h"

#include <QStringList>

#include <unordered_map>

namespace npu::views {

using namespace npu::engine;

std::vector<std::string> fusedMemberNames(const Node& node) {
    std::vector<std::string> names;
    const std::string list = node.attrString("fused_nodes");
    std::size_t start = 0;
    while (start < list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) names.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return names;
}

std::vector<int> fusedMemberIds(const Graph& before, const Node& node) {
    std::unordered_map<std::string, int> byName;
    for (const Node& n : before.nodes()) byName.emplace(n.name, n.id);
    std::vector<int> ids;
    for (const auto& name : fusedMemberNames(node))
        if (auto it = byName.find(name); it != byName.end()) ids.push_back(it->second);
    return ids;
}

QString fusedMembersHtml(const Graph* before, const Graph& after, const Node& node) {
    const auto names = fusedMemberNames(node);
    if (names.empty()) return {};
    const auto& reg = OpRegistry::instance();
    QString html = QStringLiteral("<h4>Fused: %1 ops replaced by one kernel (pattern <b>%2</b>)</h4>")
                       .arg(names.size())
                       .arg(QString::fromStdString(node.attrString("pattern")).toHtmlEscaped());
    std::unordered_map<std::string, int> byName;
    if (before)
        for (const Node& n : before->nodes()) byName.emplace(n.name, n.id);
    html += QStringLiteral("<table cellspacing=2><tr><th align=left>member</th><th align=left>op</th>"
                           "<th align=right>FLOPs</th><th align=right>bytes</th></tr>");
    double flops = 0, bytes = 0;
    for (const auto& name : names) {
        const auto it = byName.find(name);
        if (it == byName.end()) {
            html += QStringLiteral("<tr><td>%1</td><td colspan=3><i>not in the graph before passes</i></td></tr>")
                        .arg(QString::fromStdString(name).toHtmlEscaped());
            continue;
        }
        const Node& m = before->node(it->second);
        const OpCost c = reg.cost(*before, m);
        flops += c.flops;
        bytes += c.bytes();
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right nowrap>%3</td><td align=right nowrap>%4</td></tr>")
                    .arg(QString::fromStdString(name).toHtmlEscaped(), QString::fromStdString(m.op).toHtmlEscaped(),
                         formatFlops(c.flops), formatBytes(c.bytes()));
    }
    html += QStringLiteral("<tr><td colspan=2><b>members</b></td><td align=right nowrap><b>%1</b></td><td align=right nowrap><b>%2</b></td></tr>")
                .arg(formatFlops(flops), formatBytes(bytes));
    const OpCost fused = reg.cost(after, node);
    html += QStringLiteral("<tr><td colspan=2><b>fused kernel</b></td><td align=right nowrap><b>%1</b></td><td align=right nowrap><b>%2</b></td></tr></table>")
                .arg(formatFlops(fused.flops), formatBytes(fused.bytes()));
    html += QStringLiteral("<p><i>The fused kernel moves only the tensors crossing its boundary; intermediates stay on chip.</i></p>");
    if (before)
        html += QStringLiteral("<p><a href='%1'>Show the members in the graph before passes</a></p>")
                    .arg(QLatin1String(kShowMembersLink));
    return html;
}

}  // namespace npu::views
