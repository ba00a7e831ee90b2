#include "views/project/project_tree_model.h"

#include "views/project/project_validation.h"

#include <QDir>
#include <QFileInfo>
#include <QUndoStack>

#include <functional>

namespace npu::views {

using nlohmann::json;

namespace {

QString scalarText(const json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_array()) {
        QStringList parts;
        for (const auto& e : v) parts << scalarText(e);
        return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
    }
    return QString::fromStdString(v.dump());
}

bool isScalarArray(const json& v) {
    if (!v.is_array()) return false;
    for (const auto& e : v)
        if (e.is_object() || e.is_array()) return false;
    return true;
}

QList<QStandardItem*> row(const QString& key, const QString& value, const QString& tip = {}) {
    auto* k = new QStandardItem(key);
    auto* v = new QStandardItem(value);
    for (auto* item : {k, v}) {
        item->setEditable(false);
        item->setToolTip(tip.isEmpty() ? value : tip);
    }
    return {k, v};
}

QList<QStandardItem*> editableRow(const QString& key, const json& value, const std::string& path) {
    auto r = row(key, scalarText(value));
    r.back()->setEditable(true);
    r.back()->setData(QString::fromStdString(path), ProjectTreeModel::KeyPathRole);
    r.back()->setToolTip(scalarText(value) + QStringLiteral("\nDouble-click to edit (checked, then saved)"));
    return r;
}

void addJson(QStandardItem* parent, const json& obj, const std::string& path, const QMap<QString, QString>& notes) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        const std::string child = path + "/" + it.key();
        if (it->is_object()) {
            auto r = row(key, QString());
            addJson(r.front(), *it, child, notes);
            if (r.front()->rowCount() > 0) parent->appendRow(r);
            else qDeleteAll(r);
        } else if (it->is_array() && !isScalarArray(*it)) {
            auto r = row(key, QStringLiteral("%1 items").arg(it->size()));
            parent->appendRow(r);
        } else if (it->is_array()) {
            parent->appendRow(row(key, scalarText(*it)));
        } else {
            parent->appendRow(editableRow(key, *it, child));
            // A note is lines of "label<TAB>value", one row each, under the key.
            const QString note = notes.value(QString::fromStdString(child));
            const QStringList lines = note.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            for (const QString& line : lines) {
                auto n = row(QStringLiteral("↳ ") + line.section(QLatin1Char('\t'), 0, 0), line.section(QLatin1Char('\t'), 1),
                             QString(note).replace(QLatin1Char('\t'), QStringLiteral(": ")));
                n.back()->setData(QString::fromStdString(child), ProjectTreeModel::NoteRole);
                for (auto* item : n) item->setForeground(QColor(0x1F, 0x6F, 0xEB));
                parent->appendRow(n);
            }
        }
    }
}

// The text a user typed, as a value of the type the key had.
json typedValue(const QString& text, const json& old) {
    const QString t = text.trimmed();
    bool ok = false;
    if (old.is_number_integer()) {
        const qlonglong v = t.toLongLong(&ok);
        if (ok) return v;
    } else if (old.is_number()) {
        const double v = t.toDouble(&ok);
        if (ok) return v;
    } else if (old.is_boolean()) {
        if (t == QStringLiteral("true") || t == QStringLiteral("false")) return t == QStringLiteral("true");
    } else if (!old.is_string()) {
        return json::parse(t.toStdString(), nullptr, false);
    }
    if (old.is_string()) return t.toStdString();
    // A number or flag that did not parse: handed on as text so the parser names the key.
    return t.toStdString();
}

QString modelSummary(const engine::ModelSource& m) {
    if (!m.zoo.empty()) {
        QString s = QString::fromStdString(m.zoo);
        const json& c = m.config;
        if (c.contains("hidden") && c.contains("layers"))
            s += QStringLiteral(" (hidden %1, %2 layers)").arg(scalarText(c["hidden"]), scalarText(c["layers"]));
        else if (c.contains("depth"))
            s += QStringLiteral(" (depth %1)").arg(scalarText(c["depth"]));
        return s;
    }
    if (!m.onnx.empty()) return QStringLiteral("ONNX: ") + QString::fromStdString(m.onnx);
    if (!m.npuom.empty()) return QStringLiteral("offline model: ") + QString::fromStdString(m.npuom);
    return QStringLiteral("?");
}

}  // namespace

// One accepted edit of the Project tree: the keys' values before and after. Pushed once
// the edit is applied, so its first redo() does nothing.
class ProjectEditCommand : public QUndoCommand {
public:
    ProjectEditCommand(ProjectTreeModel* model, ProjectTreeModel::KeyValues before, ProjectTreeModel::KeyValues after)
        : m_model(model), m_before(std::move(before)), m_after(std::move(after)) {
        QStringList keys;
        for (const auto& [path, value] : m_after) keys << QString::fromStdString(path).mid(1).replace(QLatin1Char('/'), QLatin1Char('.'));
        setText(QStringLiteral("edit %1").arg(keys.join(QStringLiteral(", "))));
    }
    void undo() override { m_model->applyKeyValues(m_before); }
    void redo() override {
        if (m_applied) m_model->applyKeyValues(m_after);
        m_applied = true;
    }

private:
    ProjectTreeModel* m_model;
    ProjectTreeModel::KeyValues m_before, m_after;
    bool m_applied = false;
};

ProjectTreeModel::ProjectTreeModel(QObject* parent) : QStandardItemModel(parent), m_undo(new QUndoStack(this)) { rebuild(); }

void ProjectTreeModel::setProject(const engine::Project& project) {
    if (!m_hasProject || m_project.file != project.file) m_undo->clear();  // another project's edits do not apply
    m_project = project;
    m_notes.clear();
    m_hasProject = true;
    rebuild();
}

void ProjectTreeModel::clearProject() {
    m_undo->clear();
    m_hasProject = false;
    m_project = {};
    rebuild();
}

void ProjectTreeModel::addOpenedRun(const QString& dbPath, const QString& label) {
    for (const auto& p : m_opened)
        if (p.first == dbPath) return;
    m_opened.append({dbPath, label});
    rebuild();
}

QModelIndex ProjectTreeModel::runsIndex() const {
    if (!m_hasProject || rowCount() == 0) return {};
    const QModelIndex project = index(0, 0);
    for (int r = 0; r < rowCount(project); ++r) {
        const QModelIndex i = index(r, 0, project);
        if (i.data(Qt::UserRole + 11).toBool()) return i;
    }
    return {};
}

QModelIndex ProjectTreeModel::findRun(const QString& dbPath) const {
    const QModelIndexList hits = match(index(0, 0), RunPathRole, dbPath, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.front();
}

QModelIndex ProjectTreeModel::findKey(const QString& keyPath) const {
    const QModelIndexList hits = match(index(0, 0), KeyPathRole, keyPath, 1, Qt::MatchExactly | Qt::MatchRecursive);
    if (!hits.isEmpty()) return hits.front();
    // match() walks column 0; the key paths sit on the value column.
    std::function<QModelIndex(const QModelIndex&)> walk = [&](const QModelIndex& parent) -> QModelIndex {
        for (int r = 0; r < rowCount(parent); ++r) {
            const QModelIndex v = index(r, 1, parent);
            if (v.data(KeyPathRole).toString() == keyPath) return v;
            if (const QModelIndex found = walk(index(r, 0, parent)); found.isValid()) return found;
        }
        return {};
    };
    return walk({});
}

void ProjectTreeModel::setNote(const QString& keyPath, const QString& text) {
    if (text.isEmpty()) m_notes.remove(keyPath);
    else m_notes[keyPath] = text;
    // Queued like the edit's own rebuild: this may run inside the editor's commit.
    QMetaObject::invokeMethod(this, [this] { rebuild(); }, Qt::QueuedConnection);
}

QModelIndex ProjectTreeModel::findNote(const QString& keyPath) const {
    std::function<QModelIndex(const QModelIndex&)> walk = [&](const QModelIndex& parent) -> QModelIndex {
        for (int r = 0; r < rowCount(parent); ++r) {
            const QModelIndex v = index(r, 1, parent);
            if (v.data(NoteRole).toString() == keyPath) return v;
            if (const QModelIndex found = walk(index(r, 0, parent)); found.isValid()) return found;
        }
        return {};
    };
    return walk({});
}

bool ProjectTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const QString path = index.data(KeyPathRole).toString();
    if (role != Qt::EditRole || path.isEmpty() || !m_hasProject) return QStandardItemModel::setData(index, value, role);
    const json doc = engine::projectToJson(m_project);
    const json::json_pointer pointer(path.toStdString());
    // graph_level is listed at its default (0) when the file does not set it.
    const json old = doc.contains(pointer) ? doc.at(pointer) : (path == QStringLiteral("/optimizations/graph_level") ? json(0) : json());
    const json now = typedValue(value.toString(), old);
    if (now == old) return false;
    if (!applyEdits({{path.toStdString(), now}})) return false;
    QStandardItemModel::setData(index, scalarText(now), role);
    return true;
}

bool ProjectTreeModel::applyEdits(const std::vector<std::pair<std::string, nlohmann::json>>& edits) {
    if (!m_hasProject) return false;
    const json doc = engine::projectToJson(m_project);
    KeyValues before, after;
    for (const auto& [path, value] : edits) {
        const json::json_pointer pointer(path);
        before.emplace_back(path, doc.contains(pointer) ? std::optional<json>(doc.at(pointer)) : std::nullopt);
        after.emplace_back(path, value);
    }
    if (!applyKeyValues(after)) return false;
    m_undo->push(new ProjectEditCommand(this, std::move(before), std::move(after)));
    return true;
}

bool ProjectTreeModel::applyKeyValues(const KeyValues& values) {
    if (!m_hasProject) return false;
    json doc = engine::projectToJson(m_project);
    for (const auto& [path, value] : values) {
        const json::json_pointer pointer(path);
        if (value) doc[pointer] = *value;
        else if (doc.contains(pointer)) doc[pointer.parent_pointer()].erase(pointer.back());
    }
    auto parsed = engine::parseProject(doc, m_project.file.string());
    Expected<engine::Project> checked = parsed ? [&] {
        parsed->file = m_project.file;
        return validateProject(*parsed);
    }() : Expected<engine::Project>(parsed.error());
    if (!checked) {
        emit editRejected(QString::fromStdString(checked.message()));
        return false;
    }
    m_project = std::move(checked).value();
    // Rebuilt after an editor has let go of its item.
    QMetaObject::invokeMethod(this, [this] { rebuild(); }, Qt::QueuedConnection);
    emit projectEdited(m_project);
    return true;
}

void ProjectTreeModel::rebuild() {
    clear();
    setHorizontalHeaderLabels({QStringLiteral("Item"), QStringLiteral("Value")});
    if (m_hasProject) {
        const QString file = QString::fromStdString(m_project.file.string());
        auto top = row(QString::fromStdString(m_project.name), QFileInfo(file).fileName(), file);
        QStandardItem* root = top.front();
        json doc = engine::projectToJson(m_project);
        // The fusion knob is always there to edit (what-if), at its default when unset.
        if (!doc["optimizations"].contains("graph_level")) doc["optimizations"]["graph_level"] = 0;

        auto model = row(QStringLiteral("Model"), modelSummary(m_project.model));
        if (doc.contains("model")) addJson(model.front(), doc["model"], "/model", m_notes);
        root->appendRow(model);
        root->appendRow(editableRow(QStringLiteral("Device"), json(m_project.device), "/device"));
        for (const char* section : {"training", "optimizations", "parallel", "communication"}) {
            if (!doc.contains(section) || !doc[section].is_object() || doc[section].empty()) continue;
            QString title = QString::fromLatin1(section);
            title[0] = title[0].toUpper();
            // The training row names its mode (pretrain, lora, dpo, ...); its options are below.
            auto r = row(title, title == QLatin1String("Training") ? QString::fromStdString(m_project.training.mode.name) : QString());
            addJson(r.front(), doc[section], std::string("/") + section, m_notes);
            root->appendRow(r);
        }

        auto runs = row(QStringLiteral("Runs"), QStringLiteral("%1").arg(m_project.runs.size()),
                        QStringLiteral("Double-click a run to open it"));
        runs.front()->setData(true, Qt::UserRole + 11);
        const QDir folder(QString::fromStdString(m_project.folder().string()));
        for (auto it = m_project.runs.rbegin(); it != m_project.runs.rend(); ++it) {
            const QString path = QDir::cleanPath(folder.absoluteFilePath(QString::fromStdString(it->db)));
            auto r = row(QString::fromStdString(it->name),
                         QStringLiteral("%1 · %2").arg(QString::fromStdString(it->source), QString::fromStdString(it->created)),
                         path);
            r.front()->setData(path, RunPathRole);
            runs.front()->appendRow(r);
        }
        root->appendRow(runs);
        appendRow(top);
    }
    if (!m_opened.isEmpty()) {
        auto opened = row(QStringLiteral("Opened runs"), QString::number(m_opened.size()));
        for (const auto& [path, label] : m_opened) {
            auto r = row(label, QFileInfo(path).fileName(), path);
            r.front()->setData(path, RunPathRole);
            opened.front()->appendRow(r);
        }
        appendRow(opened);
    }
}

}  // namespace npu::views
