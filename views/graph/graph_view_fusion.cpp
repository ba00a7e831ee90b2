// GraphView's run graphs (graph_view.h): a simulated run's graph before and after the
// passes, fused nodes' members, the pattern legend and the orange highlight.

#include "views/graph/graph_view.h"

#include "views/graph/fused_node_details.h"
#include "views/graph/fusion_patterns.h"
#include "views/graph/graph_canvas.h"
#include "views/graph/graph_items.h"

#include <QComboBox>
#include <QLabel>
#include <QMap>
#include <QSignalBlocker>
#include <QUrl>

namespace npu::views {

void GraphView::setRunGraphs(std::shared_ptr<const engine::Graph> before, std::shared_ptr<const engine::Graph> after) {
    m_before = std::move(before);
    m_after = std::move(after);
    m_highlight.clear();
    m_members.clear();
    m_fusedName.clear();
    {
        const QSignalBlocker block(m_version);
        m_version->setCurrentIndex(m_after ? 0 : 1);
    }
    m_version->setVisible(m_before && m_after);
    showGraph(m_after ? m_after : m_before, false);
}

void GraphView::showBeforePasses(bool before) {
    if (!hasRunGraphs()) return;
    auto target = before && m_before ? m_before : (m_after ? m_after : m_before);
    {
        const QSignalBlocker block(m_version);
        m_version->setCurrentIndex(target == m_before && m_after ? 1 : 0);
    }
    if (target == m_graph) return;
    // The last fused node's members are what a user looks for before the passes, and the
    // fused node itself after them.
    if (target == m_before && !m_members.empty()) m_highlight = {m_members.begin(), m_members.end()};
    else if (target == m_after && !m_fusedName.empty()) m_highlight = {m_fusedName};
    showGraph(target, true);
}

void GraphView::highlightNodeNames(std::set<std::string> names) {
    m_highlight = std::move(names);
    applyHighlight();
}

int GraphView::highlightPass(const QString& pass) {
    if (!m_after) return 0;
    std::set<std::string> names;
    for (const auto& n : m_after->nodes()) {
        const std::string p = n.attrString("pattern");
        if (!p.empty() && passOfPattern(QString::fromStdString(p)) == pass) names.insert(n.name);
    }
    m_highlight = names;
    if (m_graph != m_after) showBeforePasses(false);
    m_highlight = names;  // showBeforePasses would have put the last fused node's name here
    applyHighlight();
    m_status->setText(names.empty() ? tr("pass %1 fused no nodes in this run").arg(pass)
                                    : tr("pass %1 produced %2 fused nodes (framed orange)").arg(pass).arg(names.size()));
    return static_cast<int>(names.size());
}

int GraphView::highlightedItemCount() const {
    int n = 0;
    for (const auto* item : m_items) n += item->highlighted() ? 1 : 0;
    return n;
}

QStringList GraphView::selectedFusedMembers() const {
    if (m_current < 0 || m_graph != m_after) return {};
    const auto& item = m_display.items[static_cast<size_t>(m_current)];
    if (item.block) return {};
    QStringList out;
    for (const auto& name : fusedMemberNames(m_graph->node(item.nodes.front()))) out << QString::fromStdString(name);
    return out;
}

QString GraphView::legendText() const { return m_legend->isHidden() ? QString() : m_legend->text(); }

void GraphView::applyHighlight() {
    QRectF framed;
    int count = 0;
    for (size_t i = 0; i < m_items.size() && i < m_display.items.size(); ++i) {
        bool on = false;
        for (int id : m_display.items[i].nodes)
            if (m_highlight.count(m_graph->node(id).name)) {
                on = true;
                break;
            }
        m_items[i]->setHighlighted(on);
        if (!on) continue;
        framed = framed.united(m_items[i]->sceneBoundingRect());
        ++count;
    }
    if (count == 0) return;
    // A few framed boxes (a fused node's members): zoom to them with some context, at
    // most to natural size; many (a pass's products): centre on them at the current zoom.
    if (count <= 24) {
        m_canvas->fitInView(framed.adjusted(-260, -160, 260, 160), Qt::KeepAspectRatio);
        if (m_canvas->transform().m11() > 1.0) {
            m_canvas->resetTransform();
            m_canvas->centerOn(framed.center());
        }
    } else {
        m_canvas->centerOn(framed.center());
    }
}

void GraphView::updateLegend() {
    if (!m_graph || !hasRunGraphs()) {
        m_legend->setVisible(false);
        return;
    }
    QMap<QString, int> counts;
    for (const auto& n : m_graph->nodes())
        if (const std::string p = n.attrString("pattern"); !p.empty()) ++counts[QString::fromStdString(p)];
    QString text;
    if (m_graph == m_before) {
        text = tr("Graph before the fusion passes: %1 nodes.").arg(m_graph->nodes().size());
        if (!m_members.empty())
            text += tr(" Framed orange: the %1 ops fused into <b>%2</b>.")
                        .arg(m_members.size())
                        .arg(QString::fromStdString(m_fusedName).toHtmlEscaped());
    } else {
        text = tr("Graph after the passes (simulated): %1 nodes, %2 fused. ").arg(m_graph->nodes().size()).arg([&] {
            int total = 0;
            for (int c : counts) total += c;
            return total;
        }());
        QStringList patterns;
        for (auto it = counts.begin(); it != counts.end(); ++it) patterns << it.key();
        text += patternLegendHtml(patterns);
    }
    m_legend->setText(text);
    m_legend->setVisible(true);
}

void GraphView::onDetailsLink(const QUrl& url) {
    if (url.toString() != QLatin1String(kShowMembersLink)) return;
    // The members' blocks open, so the framed ops are visible rather than a framed block.
    if (m_before)
        for (const auto& name : m_members)
            for (const auto& n : m_before->nodes())
                if (n.name == name && !n.block.empty()) m_options.collapsedBlocks.erase(n.block);
    showBeforePasses(true);
}

}  // namespace npu::views
