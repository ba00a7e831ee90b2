#include "views/project/project_explorer.h"

#include "views/project/project_tree_model.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace npu::views {

ProjectExplorer::ProjectExplorer(QWidget* parent) : QWidget(parent) {
    m_model = new ProjectTreeModel(this);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    // Project values edit in place (double-click, F2); other items are not editable.
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->header()->resizeSection(0, 170);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);

    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString path = index.siblingAtColumn(0).data(ProjectTreeModel::RunPathRole).toString();
        if (!path.isEmpty()) emit runActivated(path);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProjectExplorer::expandDefaults);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &ProjectExplorer::expandDefaults);
}

void ProjectExplorer::expandDefaults() {
    for (int r = 0; r < m_model->rowCount(); ++r) m_tree->expand(m_model->index(r, 0));
    const QModelIndex runs = m_model->runsIndex();
    if (runs.isValid()) m_tree->expand(runs);
    // Training and Optimizations (graph_level and its what-if) are what users look at first.
    if (m_model->rowCount() > 0) {
        const QModelIndex project = m_model->index(0, 0);
        for (int r = 0; r < m_model->rowCount(project); ++r) {
            const QString key = m_model->index(r, 0, project).data().toString();
            if (key == QStringLiteral("Training") || key == QStringLiteral("Optimizations"))
                m_tree->expand(m_model->index(r, 0, project));
        }
    }
    // The key column fits its longest visible key ("activation_checkpointing"), within reason.
    m_tree->resizeColumnToContents(0);
    if (m_tree->columnWidth(0) > 220) m_tree->setColumnWidth(0, 220);
}

}  // namespace npu::views
