#include "views/query/schema_browser.h"

#include "profiler/store/sql_query.h"

#include <QHeaderView>

namespace npu::views {

namespace {

// Item roles: what a double-click inserts, and which kind of row it is.
constexpr int NameRole = Qt::UserRole;
constexpr int KindRole = Qt::UserRole + 1;
const QString kColumn = QStringLiteral("column");
const QString kIndex = QStringLiteral("index");

QString text(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

SchemaBrowser::SchemaBrowser(QWidget* parent) : QTreeWidget(parent) {
    setHeaderLabels({tr("Table / column"), tr("Type")});
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setToolTip(tr("The run's tables, their columns and indexes; double-click to insert a name"));
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QString name = item->data(0, NameRole).toString();
        if (!name.isEmpty()) emit nameActivated(name);
    });
}

QString SchemaBrowser::setDatabase(const std::filesystem::path& db) {
    clear();
    if (db.empty()) return {};
    // Columns of every table and view, in declaration order.
    auto columns = profiler::runReadOnlyQuery(
        db, "SELECT m.name, m.type, p.name, p.type, p.pk FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p "
            "WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid");
    if (!columns) return text(columns.message());
    for (const auto& row : columns->table.rows) {
        const QString table = text(row[0]);
        QTreeWidgetItem* parent = tableItem(table);
        if (!parent) {
            parent = new QTreeWidgetItem(this, {table, row[1] == "view" ? tr("view") : QString()});
            parent->setData(0, NameRole, table);
            QFont bold = parent->font(0);
            bold.setBold(true);
            parent->setFont(0, bold);
        }
        auto* column = new QTreeWidgetItem(parent, {text(row[2]), text(row[3]) + (row[4] != "0" ? tr(" (primary key)") : QString())});
        column->setData(0, NameRole, text(row[2]));
        column->setData(0, KindRole, kColumn);
    }
    // Indexes with their columns, in key order (sqlite_autoindex_* are UNIQUE constraints').
    auto indexes = profiler::runReadOnlyQuery(
        db, "SELECT m.tbl_name, m.name, i.name FROM sqlite_master AS m JOIN pragma_index_info(m.name) AS i "
            "WHERE m.type = 'index' ORDER BY m.tbl_name, m.name, i.seqno");
    if (!indexes) return text(indexes.message());
    QTreeWidgetItem* current = nullptr;
    QStringList keys;
    auto flush = [&] {
        if (current) {
            current->setText(1, tr("index (%1)").arg(keys.join(QStringLiteral(", "))));
            current->setData(1, NameRole, keys.join(QStringLiteral(", ")));
        }
        keys.clear();
    };
    for (const auto& row : indexes->table.rows) {
        const QString name = text(row[1]);
        if (!current || current->text(0) != name) {
            flush();
            QTreeWidgetItem* parent = tableItem(text(row[0]));
            if (!parent) continue;
            current = new QTreeWidgetItem(parent, {name});
            current->setData(0, NameRole, name);
            current->setData(0, KindRole, kIndex);
            current->setForeground(0, palette().placeholderText());
        }
        keys << text(row[2]);
    }
    flush();
    return {};
}

QTreeWidgetItem* SchemaBrowser::tableItem(const QString& table) const {
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->text(0) == table) return topLevelItem(i);
    return nullptr;
}

QStringList SchemaBrowser::tables() const {
    QStringList names;
    for (int i = 0; i < topLevelItemCount(); ++i) names << topLevelItem(i)->text(0);
    return names;
}

QStringList SchemaBrowser::children(const QString& table, const QString& kind) const {
    QStringList out;
    const QTreeWidgetItem* t = tableItem(table);
    for (int i = 0; t && i < t->childCount(); ++i) {
        const QTreeWidgetItem* c = t->child(i);
        if (c->data(0, KindRole).toString() != kind) continue;
        // A column: "name TYPE"; an index: "name (its key columns)".
        out << (kind == kIndex ? QStringLiteral("%1 (%2)").arg(c->text(0), c->data(1, NameRole).toString())
                               : c->text(0) + QLatin1Char(' ') + c->text(1));
    }
    return out;
}

QStringList SchemaBrowser::columns(const QString& table) const { return children(table, kColumn); }
QStringList SchemaBrowser::indexes(const QString& table) const { return children(table, kIndex); }

}  // namespace npu::views
