#pragma once
// The Project explorer's model: the open project's model, device and configuration keys
// (straight from its project.json, so every key the format knows shows up), its runs,
// and the runs opened without a project. Two columns: key and value.

#include "engine/project/project.h"

#include <QStandardItemModel>

namespace npu::views {

class ProjectTreeModel : public QStandardItemModel {
    Q_OBJECT
public:
    // Absolute path of a run's .npudb on run items; invalid on other items.
    static constexpr int RunPathRole = Qt::UserRole + 10;

    explicit ProjectTreeModel(QObject* parent = nullptr);

    void setProject(const engine::Project& project);
    void clearProject();
    // A run opened on its own (File > Open); listed under "Opened runs".
    void addOpenedRun(const QString& dbPath, const QString& label);

    QModelIndex runsIndex() const;  // the project's "Runs" item, invalid without project
    QModelIndex findRun(const QString& dbPath) const;

private:
    void rebuild();

    bool m_hasProject = false;
    engine::Project m_project;
    QList<QPair<QString, QString>> m_opened;  // path, label
};

}  // namespace npu::views
