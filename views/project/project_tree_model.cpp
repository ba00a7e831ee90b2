#include "views/project/project_tree_model.h"

#include <QDir>
#include <QFileInfo>

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

void addJson(QStandardItem* parent, const json& obj) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        if (it->is_object()) {
            auto r = row(key, QString());
            addJson(r.front(), *it);
            if (r.front()->rowCount() > 0) parent->appendRow(r);
            else qDeleteAll(r);
        } else if (it->is_array() && !isScalarArray(*it)) {
            auto r = row(key, QStringLiteral("%1 items").arg(it->size()));
            parent->appendRow(r);
        } else {
            parent->appendRow(row(key, scalarText(*it)));
        }
    }
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

ProjectTreeModel::ProjectTreeModel(QObject* parent) : QStandardItemModel(parent) { rebuild(); }

void ProjectTreeModel::setProject(const engine::Project& project) {
    m_project = project;
    m_hasProject = true;
    rebuild();
}

void ProjectTreeModel::clearProject() {
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

void ProjectTreeModel::rebuild() {
    clear();
    setHorizontalHeaderLabels({QStringLiteral("Item"), QStringLiteral("Value")});
    if (m_hasProject) {
        const QString file = QString::fromStdString(m_project.file.string());
        auto top = row(QString::fromStdString(m_project.name), QFileInfo(file).fileName(), file);
        QStandardItem* root = top.front();
        json doc = engine::projectToJson(m_project);

        auto model = row(QStringLiteral("Model"), modelSummary(m_project.model));
        if (doc.contains("model")) addJson(model.front(), doc["model"]);
        root->appendRow(model);
        root->appendRow(row(QStringLiteral("Device"), QString::fromStdString(m_project.device)));
        for (const char* section : {"training", "optimizations", "parallel", "communication"}) {
            if (!doc.contains(section) || !doc[section].is_object() || doc[section].empty()) continue;
            QString title = QString::fromLatin1(section);
            title[0] = title[0].toUpper();
            auto r = row(title, QString());
            addJson(r.front(), doc[section]);
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
