#pragma once
// The Query tab (Perfetto's query page over our SQLite store): SQL on the open .npudb,
// read-only, run off the GUI thread (Ctrl+Enter or Run) and cancellable (Cancel or
// Escape), results in a table, CSV export, and the example queries of docs/queries/
// (compiled in as resources) in a menu.

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
class QTableView;

namespace npu::views {

class RecordTableModel;

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
    QString status() const;
    QComboBox* examples() const { return m_examples; }

signals:
    void finished(bool ok);

private:
    void onFinished();
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
};

}  // namespace npu::views
