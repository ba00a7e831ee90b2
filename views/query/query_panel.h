#pragma once
// The Query tab (Perfetto's query page over our SQLite store): SQL on the open .npudb,
// read-only, run off the GUI thread (Ctrl+Enter or Run) and cancellable (Cancel or
// Escape), results in a table, CSV export, the example queries of docs/queries/
// (compiled in as resources) in a menu, and the run's schema beside the editor. A result
// row that carries a slice id (a slice_id or task_id column, or id selected from TASK)
// shows that slice on the timeline on double-click.

#include "profiler/store/sql_query.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <filesystem>
#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QShortcut;
class QTableView;

namespace npu::views {

class RecordTableModel;
class SchemaBrowser;

class QueryPanel : public QWidget {
    Q_OBJECT
public:
    explicit QueryPanel(QWidget* parent = nullptr);
    ~QueryPanel() override;

    void setDatabase(const std::filesystem::path& db);  // empty: no run open
    void setQuery(const QString& sql);
    QString query() const;
    void run();
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }
    bool exportCsv(const QString& file, QString* error = nullptr) const;

    RecordTableModel* results() const { return m_results; }
    QTableView* resultsTable() const { return m_table; }
    SchemaBrowser* schema() const { return m_schema; }
    // The result column holding slice ids, -1 when the results carry none.
    int sliceColumn() const { return m_sliceColumn; }
    QString status() const;
    QComboBox* examples() const { return m_examples; }

signals:
    void finished(bool ok);
    // A result row's slice, double-clicked: the main window shows it on the timeline.
    void sliceActivated(qint64 sliceId);

private:
    void onFinished();
    void clearResults();
    void setRunning(bool running);
    struct Outcome {
        profiler::SqlQueryResult result;
        QString error;  // empty: ok
    };

    std::filesystem::path m_db;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<Outcome> m_watcher;
    profiler::SqlQueryResult m_last;
    QPlainTextEdit* m_editor;
    QComboBox* m_examples;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_export;
    QLabel* m_status;
    RecordTableModel* m_results;
    QTableView* m_table;
    SchemaBrowser* m_schema;
    QShortcut* m_escape = nullptr;  // cancels a running query; off otherwise, so Esc reaches others
    int m_sliceColumn = -1;
    QString m_ranQuery;  // the statement of the results shown
};

}  // namespace npu::views
