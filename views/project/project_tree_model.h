#pragma once
// The Project explorer's model: the open project's model, device and configuration keys
// (straight from its project.json, so every key the format knows shows up), its runs,
// and the runs opened without a project. Two columns: key and value. Scalar values of the
// project (device, model config, training, ...) are editable in place: an edit is checked
// with validateProject (the loader's and the model builder's checks) and either becomes
// the project (projectEdited, for the window to save and offer a re-simulation) or is
// refused (editRejected with the reason) and the old value stays. Every accepted edit is a
// command on undoStack() (Edit > Undo / Redo): undoing puts the keys' old values back
// (removing a key the edit added) through the same checks, and emits projectEdited so
// the window saves it as it saves an edit. Another project starts an empty stack.

#include "engine/project/project.h"

#include <QStandardItemModel>

#include <optional>
#include <string>
#include <utility>
#include <vector>

class QUndoStack;

namespace npu::views {

class ProjectTreeModel : public QStandardItemModel {
    Q_OBJECT
public:
    // Absolute path of a run's .npudb on run items; invalid on other items.
    static constexpr int RunPathRole = Qt::UserRole + 10;
    // JSON pointer into project.json ("/training/batch") on editable value items.
    static constexpr int KeyPathRole = Qt::UserRole + 12;

    explicit ProjectTreeModel(QObject* parent = nullptr);

    void setProject(const engine::Project& project);
    void clearProject();
    // A run opened on its own (File > Open); listed under "Opened runs".
    void addOpenedRun(const QString& dbPath, const QString& label);

    QModelIndex runsIndex() const;  // the project's "Runs" item, invalid without project
    QModelIndex findRun(const QString& dbPath) const;
    // The value item of a key path ("/training/batch"), invalid when not shown.
    QModelIndex findKey(const QString& keyPath) const;

    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // Several keys at once (JSON pointer, value), checked as one edit like setData's:
    // projectEdited, or editRejected and no change. Used by the strategy search's Apply.
    bool applyEdits(const std::vector<std::pair<std::string, nlohmann::json>>& edits);
    QUndoStack* undoStack() const { return m_undo; }

    // Key path -> value; nullopt removes the key. What an undo or redo applies.
    using KeyValues = std::vector<std::pair<std::string, std::optional<nlohmann::json>>>;
    // Checked as applyEdits is; no command is pushed.
    bool applyKeyValues(const KeyValues& values);

    // Rows shown under a key's row ("/optimizations/graph_level": the what-if prediction
    // for the edited value), one per line of `text`, each "label<TAB>value"; empty text
    // removes them. Cleared by setProject.
    void setNote(const QString& keyPath, const QString& text);
    QString note(const QString& keyPath) const { return m_notes.value(keyPath); }
    // The first note row's value item, invalid when none is shown.
    QModelIndex findNote(const QString& keyPath) const;
    static constexpr int NoteRole = Qt::UserRole + 13;

signals:
    void projectEdited(const engine::Project& project);
    void editRejected(const QString& message);

private:
    void rebuild();

    bool m_hasProject = false;
    QUndoStack* m_undo = nullptr;
    engine::Project m_project;
    QList<QPair<QString, QString>> m_opened;  // path, label
    QMap<QString, QString> m_notes;           // key path -> note
};

}  // namespace npu::views
