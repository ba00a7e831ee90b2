#pragma once
// The Query tab's schema browser (Perfetto's and DB Browser's table list): the open
// run's tables and views with their columns (type, primary key) and, under each table,
// its indexes with the columns they cover. Read from sqlite_master, pragma_table_info and
// pragma_index_info through the panel's own read-only query (profiler/store/sql_query),
// so it always describes the file the queries run on. Double-click inserts a name.

#include <QTreeWidget>

#include <filesystem>

namespace npu::views {

class SchemaBrowser : public QTreeWidget {
    Q_OBJECT
public:
    explicit SchemaBrowser(QWidget* parent = nullptr);

    // Empty: no run open. Returns the problem reading the schema, empty when read.
    QString setDatabase(const std::filesystem::path& db);

    QStringList tables() const;                         // tables and views, by name
    QStringList columns(const QString& table) const;    // "name TYPE", "(primary key)" added, in column order
    QStringList indexes(const QString& table) const;    // "name (col, col)"

signals:
    void nameActivated(const QString& name);  // a table, column or index double-clicked

private:
    QTreeWidgetItem* tableItem(const QString& table) const;
    QStringList children(const QString& table, const QString& kind) const;  // columns() and indexes()
};

}  // namespace npu::views
