#include "views/graph/graph_view.h"

#include "views/graph/fused_node_details.h"
#include "views/graph/graph_canvas.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_node_details.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainterPath>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace npu::views {

GraphView::GraphView(QWidget* parent) : QWidget(parent), m_scene(new QGraphicsScene(this)) {
    m_canvas = new GraphCanvas(m_scene, this);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Find node name or op type (Enter: next)"));
    m_search->setClearButtonEnabled(true);
    m_hideShapeOnly = new QCheckBox(tr("Hide constants and shape ops"), this);
    m_hideShapeOnly->setChecked(m_options.hideShapeOnly);
    auto* collapse = new QPushButton(tr("Collapse blocks"), this);
    auto* expand = new QPushButton(tr("Expand blocks"), this);
    auto* fit = new QPushButton(tr("Fit"), this);
    m_status = new QLabel(this);
    m_version = new QComboBox(this);
    m_version->addItems({tr("After passes (simulated)"), tr("Before passes")});
    m_version->setToolTip(tr("The run's graph after the graph passes (what it simulated) or before them"));
    m_version->setVisible(false);
    m_scope = new QLabel(this);
    m_scope->setWordWrap(true);
    m_scope->setVisible(false);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setVisible(false);
    m_details = new QTextBrowser(this);
    // Links in the details act inside the view (show a fused node's members).
    m_details->setOpenLinks(false);
    m_details->setMinimumWidth(260);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_version);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_hideShapeOnly);
    bar->addWidget(collapse);
    bar->addWidget(expand);
    bar->addWidget(fit);
    bar->addWidget(m_status);
    auto* split = new QSplitter(this);
    split->addWidget(m_canvas);
    split->addWidget(m_details);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    // Stretch factors only share out later resizes; the first sizes come from size hints,
    // where the text browser's wins and the canvas starts a few dozen pixels wide.
    split->setSizes({900, 300});
    split->setCollapsible(0, false);
    m_canvas->setMinimumWidth(200);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_scope);
    layout->addWidget(m_legend);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (!findNext(m_search->text())) m_status->setText(tr("no match for \"%1\"").arg(m_search->text()));
    });
    connect(m_hideShapeOnly, &QCheckBox::toggled, this, &GraphView::setHideShapeOnly);
    connect(collapse, &QPushButton::clicked, this, &GraphView::collapseAllBlocks);
    connect(expand, &QPushButton::clicked, this, &GraphView::expandAllBlocks);
    connect(fit, &QPushButton::clicked, m_canvas, &GraphCanvas::fitAll);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    connect(m_canvas, &GraphCanvas::itemDoubleClicked, this, &GraphView::onItemDoubleClicked);
    connect(&m_watcher, &QFutureWatcher<Laid>::finished, this, &GraphView::onLayoutDone);
    connect(m_version, &QComboBox::currentIndexChanged, this, [this](int i) { showBeforePasses(i == 1); });
    connect(m_details, &QTextBrowser::anchorClicked, this, &GraphView::onDetailsLink);
    showEmptyHint();
}

GraphView::~GraphView() {
    // ~QWidget deletes the children after this body, when this is no longer a GraphView:
    // the scene's clear() then emits selectionChanged into onSelectionChanged of a
    // destroyed object (ASan: use after destruction). Cut the children's connections first.
    disconnect(m_scene, nullptr, this, nullptr);
    disconnect(m_canvas, nullptr, this, nullptr);
    disconnect(&m_watcher, nullptr, this, nullptr);
    m_watcher.waitForFinished();
}

void GraphView::setScope(const QString& scope) {
    m_scope->setText(scope.isEmpty() ? QString() : tr("This run simulated %1; the step's other layers, micro-batches and ranks are laid out from it.").arg(scope));
    m_scope->setVisible(!scope.isEmpty());
}

QString GraphView::scope() const { return m_scope->isHidden() ? QString() : m_scope->text(); }

void GraphView::setGraph(std::shared_ptr<const engine::Graph> graph) {
    setScope({});
    m_before.reset();
    m_after.reset();
    m_highlight.clear();
    m_members.clear();
    m_fusedName.clear();
    m_version->setVisible(false);
    showGraph(std::move(graph), false);
}

void GraphView::showGraph(std::shared_ptr<const engine::Graph> graph, bool keepBlocks) {
    m_graph = std::move(graph);
    updateLegend();
    if (keepBlocks && m_graph) {
        m_current = -1;
        relayout();
        return;
    }
    m_options.collapsedBlocks.clear();
    // Deep models open with their repeated blocks collapsed, so the first view is readable.
    // A run's training graph collapses sooner: its backward reads the forward's
    // activations across the whole depth, and dot's crossing minimisation on those long
    // edges takes minutes for the 8-layer LLaMA's 368 nodes where a forward graph of that
    // size takes a second.
    const size_t collapseAbove = hasRunGraphs() ? 150 : 400;
    if (m_graph && m_graph->nodes().size() > collapseAbove)
        for (const auto& b : graphBlocks(*m_graph)) m_options.collapsedBlocks.insert(b);
    m_current = -1;
    if (!m_graph) {  // cleared: nothing of the previous model stays on screen
        ++m_generation;
        m_scene->clear();
        m_items.clear();
        m_display = {};
        m_details->clear();
        m_status->clear();
        showEmptyHint();
        return;
    }
    relayout();
}

void GraphView::setEmptyMessage(const QString& message) { m_emptyMessage = message; }

void GraphView::showEmptyHint() {
    // An empty canvas reads as "still loading" or "broken"; say what would fill it, in
    // type as large as the panel's (the canvas may still be zoomed out from a model).
    const QString text = !m_emptyMessage.isEmpty() ? m_emptyMessage
                                                   : tr("No model graph to show.\n\n"
                                                        "A simulated run or an open project shows its model here.\n"
                                                        "An imported trace records kernels, not the model that issued them.\n"
                                                        "File > Convert Model… opens an ONNX model.");
    auto* hint = m_scene->addText(text);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    hint->setFont(f);
    hint->setTextWidth(520);
    hint->setDefaultTextColor(palette().color(QPalette::Disabled, QPalette::Text));
    m_canvas->resetTransform();
    m_canvas->centerOn(hint);
}

void GraphView::collapseAllBlocks() {
    if (!m_graph) return;
    for (const auto& b : graphBlocks(*m_graph)) m_options.collapsedBlocks.insert(b);
    relayout();
}

void GraphView::expandAllBlocks() {
    m_options.collapsedBlocks.clear();
    relayout();
}

void GraphView::toggleBlock(const std::string& block) {
    if (!m_options.collapsedBlocks.erase(block)) m_options.collapsedBlocks.insert(block);
    relayout();
}

void GraphView::setHideShapeOnly(bool hide) {
    m_options.hideShapeOnly = hide;
    if (m_hideShapeOnly->isChecked() != hide) m_hideShapeOnly->setChecked(hide);
    relayout();
}

bool GraphView::layoutPending() const { return m_watcher.isRunning(); }

int GraphView::opaqueItemCount() const {
    int n = 0;
    for (const auto& item : m_display.items) n += item.opaque ? 1 : 0;
    return n;
}

QString GraphView::detailsHtml() const { return m_details->toHtml(); }

void GraphView::relayout() {
    if (!m_graph) return;
    const quint64 generation = ++m_generation;
    m_status->setText(tr("laying out..."));
    auto graph = m_graph;
    const DisplayOptions options = m_options;
    // Display graph and dot layout both run on the pool; the GUI thread only builds items.
    m_watcher.setFuture(QtConcurrent::run([graph, options, generation] {
        Laid laid;
        laid.generation = generation;
        laid.display = buildDisplayGraph(*graph, options);
        LayoutRequest request;
        for (const auto& item : laid.display.items) {
            const QSizeF s = GraphNodeItem::sizeFor(item);
            request.nodes.push_back({s.width(), s.height()});
        }
        for (const auto& e : laid.display.edges) request.edges.push_back({e.from, e.to});
        laid.layout = layoutWithDot(request);
        return laid;
    }));
}

void GraphView::onLayoutDone() {
    Laid laid = m_watcher.result();
    if (laid.generation != m_generation) return;  // a newer layout is on its way
    m_scene->clear();
    m_items.clear();
    m_display = std::move(laid.display);
    if (!laid.layout.error.empty()) {
        m_status->setText(QString::fromStdString(laid.layout.error));
        return;
    }
    m_items.reserve(m_display.items.size());
    for (size_t i = 0; i < m_display.items.size(); ++i) {
        const auto& item = m_display.items[i];
        auto* box = new GraphNodeItem(static_cast<int>(i), item, GraphNodeItem::sizeFor(item), m_graph == m_after);
        box->setPos(laid.layout.centers[i].x, laid.layout.centers[i].y);
        m_scene->addItem(box);
        m_items.push_back(box);
    }
    for (size_t i = 0; i < m_display.edges.size() && i < laid.layout.edges.size(); ++i) {
        const auto& pts = laid.layout.edges[i];
        if (pts.size() < 2) continue;
        QPainterPath path(QPointF(pts[0].x, pts[0].y));
        for (size_t k = 1; k < pts.size(); ++k) path.lineTo(pts[k].x, pts[k].y);
        const engine::Tensor& t = m_graph->tensor(m_display.edges[i].tensor);
        const auto dtype = engine::dtypeName(t.dtype);
        m_scene->addItem(new GraphEdgeItem(path, QString::fromStdString(t.name) + QStringLiteral("\n") + shapeText(t) +
                                                     QStringLiteral(" ") +
                                                     QString::fromUtf8(dtype.data(), static_cast<int>(dtype.size()))));
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-40, -40, 40, 40));
    m_lastLayoutSeconds = laid.layout.seconds;
    m_status->setText(tr("%1 boxes, %2 edges, %3 unsupported; layout %4 s")
                          .arg(m_display.items.size())
                          .arg(m_display.edges.size())
                          .arg(opaqueItemCount())
                          .arg(laid.layout.seconds, 0, 'f', 2));
    m_canvas->fitAll();
    m_current = -1;
    applyHighlight();
    emit layoutFinished(laid.layout.seconds);
}

void GraphView::showItem(int index) {
    if (index < 0 || static_cast<size_t>(index) >= m_items.size()) return;
    m_current = index;
    const auto& item = m_display.items[static_cast<size_t>(index)];
    QString html = nodeDetailsHtml(*m_graph, item);
    if (!item.block && m_graph == m_after) {
        const engine::Node& n = m_graph->node(item.nodes.front());
        if (const QString fused = fusedMembersHtml(m_before.get(), *m_graph, n); !fused.isEmpty()) {
            m_members = fusedMemberNames(n);
            m_fusedName = n.name;
            html += fused;
        }
    }
    m_details->setHtml(html);
    if (!item.block) emit nodeSelected(item.nodes.front());
}

void GraphView::onSelectionChanged() {
    const auto selected = m_scene->selectedItems();
    if (selected.isEmpty()) return;
    if (auto* box = dynamic_cast<GraphNodeItem*>(selected.front())) showItem(box->index());
}

void GraphView::onItemDoubleClicked(int index) {
    const auto& item = m_display.items[static_cast<size_t>(index)];
    if (item.block) toggleBlock(item.blockName);
    else if (const auto& block = m_graph->node(item.nodes.front()).block; !block.empty()) toggleBlock(block);
}

bool GraphView::findNext(const QString& text) {
    if (text.isEmpty() || m_items.empty()) return false;
    const int n = static_cast<int>(m_display.items.size());
    for (int step = 1; step <= n; ++step) {
        const int i = (m_current + step + n) % n;
        const auto& item = m_display.items[static_cast<size_t>(i)];
        bool match = item.label.contains(text, Qt::CaseInsensitive);
        for (size_t k = 0; !match && k < item.nodes.size(); ++k) {
            const auto& node = m_graph->node(item.nodes[k]);
            match = QString::fromStdString(node.name).contains(text, Qt::CaseInsensitive) ||
                    QString::fromStdString(node.op).compare(text, Qt::CaseInsensitive) == 0;
        }
        if (!match) continue;
        m_scene->clearSelection();
        m_items[static_cast<size_t>(i)]->setSelected(true);
        m_canvas->centerOn(m_items[static_cast<size_t>(i)]);
        showItem(i);
        return true;
    }
    return false;
}

bool GraphView::selectNode(int nodeId) {
    if (nodeId < 0 || static_cast<size_t>(nodeId) >= m_display.itemOfNode.size()) return false;
    const int i = m_display.itemOfNode[static_cast<size_t>(nodeId)];
    if (i < 0 || static_cast<size_t>(i) >= m_items.size()) return false;
    m_scene->clearSelection();
    m_items[static_cast<size_t>(i)]->setSelected(true);
    m_canvas->centerOn(m_items[static_cast<size_t>(i)]);
    showItem(i);
    return true;
}

}  // namespace npu::views
