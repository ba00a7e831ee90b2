#pragma once
// The Graph tab: a converted (or zoo) model as a layered DAG laid out by Graphviz dot
// off the GUI thread. Boxes are coloured by op category and unsupported ops are red;
// hover an edge for its tensor's shape, click a box for its attributes and costs,
// wheel to zoom, drag to pan, search by node name or op type, collapse repeated blocks.
// A simulated run shows its graph before and after the passes (a toggle): fused nodes
// are coloured by pattern with a legend, a fused node's details list the ops it
// replaced, and those are highlighted in the graph before passes.

#include "engine/ir/graph.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_layout.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <set>
#include <string>

class QCheckBox;
class QComboBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QTextBrowser;
class QUrl;

namespace npu::views {

class GraphCanvas;
class GraphNodeItem;

class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(std::shared_ptr<const engine::Graph> graph);
    // A simulated run's graphs: before the fusion passes and after them (the graph it
    // simulated). Shows `after` first; either may be null.
    void setRunGraphs(std::shared_ptr<const engine::Graph> before, std::shared_ptr<const engine::Graph> after);
    bool hasRunGraphs() const { return m_before || m_after; }
    // What the run's graph is of when it is not the whole model (a cluster run's part of
    // one rank, SimulationResult::graph_scope), shown above it; empty hides the line.
    void setScope(const QString& scope);
    // What the empty canvas says (the next setGraph(nullptr)); empty: the general hint.
    void setEmptyMessage(const QString& message);
    QString emptyMessage() const { return m_emptyMessage; }
    QString scope() const;
    void showBeforePasses(bool before);
    bool showingBefore() const { return hasRunGraphs() && m_graph == m_before; }
    const engine::Graph* graphBefore() const { return m_before.get(); }
    const engine::Graph* graphAfter() const { return m_after.get(); }

    // Orange frames on the boxes showing the nodes named in `names` (kept over relayouts
    // until replaced); the number of boxes framed once laid out.
    void highlightNodeNames(std::set<std::string> names);
    // Shows the graph after passes with the fused nodes pass `pass` produced framed;
    // returns how many nodes that is (0 for a pass that fuses nothing).
    int highlightPass(const QString& pass);
    int highlightedItemCount() const;
    // The member names of the selected fused node (empty when none is selected).
    QStringList selectedFusedMembers() const;
    QString legendText() const;
    const engine::Graph* graph() const { return m_graph.get(); }

    void collapseAllBlocks();
    void expandAllBlocks();
    void toggleBlock(const std::string& block);
    void setHideShapeOnly(bool hide);

    // Selects the next box whose node name or op type contains `text` (case-insensitive)
    // after the current selection, centres it and shows its details. False when none.
    bool findNext(const QString& text);
    // Selects the box showing engine node `nodeId` (expanding nothing); false if hidden.
    bool selectNode(int nodeId);

    bool layoutPending() const;
    int itemCount() const { return static_cast<int>(m_display.items.size()); }
    int edgeCount() const { return static_cast<int>(m_display.edges.size()); }
    int opaqueItemCount() const;
    QString detailsHtml() const;
    double lastLayoutSeconds() const { return m_lastLayoutSeconds; }

signals:
    void layoutFinished(double seconds);
    void nodeSelected(int nodeId);

private:
    struct Laid {
        DisplayGraph display;
        LayoutResult layout;
        quint64 generation = 0;
    };
    void relayout();
    void showEmptyHint();
    void onLayoutDone();
    void showItem(int index);
    void onSelectionChanged();
    void onItemDoubleClicked(int index);
    void showGraph(std::shared_ptr<const engine::Graph> graph, bool keepBlocks);
    void applyHighlight();
    void updateLegend();
    void onDetailsLink(const QUrl& url);

    std::shared_ptr<const engine::Graph> m_graph;
    std::shared_ptr<const engine::Graph> m_before, m_after;
    std::set<std::string> m_highlight;       // node names framed in orange
    std::vector<std::string> m_members;      // of the last selected fused node
    std::string m_fusedName;                 // that fused node's name
    QComboBox* m_version;
    QLabel* m_legend;
    QLabel* m_scope;
    DisplayOptions m_options;
    DisplayGraph m_display;
    std::vector<GraphNodeItem*> m_items;
    QGraphicsScene* m_scene;
    GraphCanvas* m_canvas;
    QLineEdit* m_search;
    QCheckBox* m_hideShapeOnly;
    QLabel* m_status;
    QTextBrowser* m_details;
    QFutureWatcher<Laid> m_watcher;
    quint64 m_generation = 0;
    int m_current = -1;
    double m_lastLayoutSeconds = 0;
    QString m_emptyMessage;
};

}  // namespace npu::views
