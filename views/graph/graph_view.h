#pragma once
// The Graph tab: a converted (or zoo) model as a layered DAG laid out by Graphviz dot
// off the GUI thread. Boxes are coloured by op category and unsupported ops are red;
// hover an edge for its tensor's shape, click a box for its attributes and costs,
// wheel to zoom, drag to pan, search by node name or op type, collapse repeated blocks.

#include "engine/ir/graph.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_layout.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QCheckBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QTextBrowser;

namespace npu::views {

class GraphCanvas;
class GraphNodeItem;

class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(std::shared_ptr<const engine::Graph> graph);
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
    void onLayoutDone();
    void showItem(int index);
    void onSelectionChanged();
    void onItemDoubleClicked(int index);

    std::shared_ptr<const engine::Graph> m_graph;
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
};

}  // namespace npu::views
