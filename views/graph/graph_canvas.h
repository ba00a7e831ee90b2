#pragma once
// The QGraphicsView of the graph tab: wheel zooms around the cursor, drag pans,
// double-click on a box reports it (to expand/collapse blocks).

#include <QGraphicsView>

namespace npu::views {

class GraphCanvas : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphCanvas(QGraphicsScene* scene, QWidget* parent = nullptr);
    void zoomBy(double factor);
    void fitAll();

signals:
    void itemDoubleClicked(int index);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
};

}  // namespace npu::views
