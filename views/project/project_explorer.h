#pragma once
// The Project explorer panel: a tree over ProjectTreeModel; double-clicking a run asks
// the window to open it.

#include <QWidget>

class QTreeView;

namespace npu::views {

class ProjectTreeModel;

class ProjectExplorer : public QWidget {
    Q_OBJECT
public:
    explicit ProjectExplorer(QWidget* parent = nullptr);

    ProjectTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    // Expands the project and its runs after the model changed.
    void expandDefaults();

signals:
    void runActivated(const QString& dbPath);

private:
    ProjectTreeModel* m_model;
    QTreeView* m_tree;
};

}  // namespace npu::views
