#include "views/query/query_panel.h"

#include "views/query/schema_browser.h"
#include "views/tables/record_table_model.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

// The examples' resource lives in this static library: register it once before use.
static void initQueryResources() { Q_INIT_RESOURCE(queries); }

namespace npu::views {

namespace {

// The result column of slice ids: one named slice_id or task_id (what OP_INFO, FLOW and
// joins call them), else "id" when the statement selects from TASK (the slices' table).
int sliceIdColumn(const QStringList& headers, const QString& sql) {
    for (const QString& name : {QStringLiteral("slice_id"), QStringLiteral("task_id")})
        for (int c = 0; c < headers.size(); ++c)
            if (headers[c].compare(name, Qt::CaseInsensitive) == 0) return c;
    static const QRegularExpression firstFrom(QStringLiteral("\\bFROM\\s+(\\w+)"), QRegularExpression::CaseInsensitiveOption);
    const auto first = firstFrom.match(sql);
    if (!first.hasMatch() || first.captured(1).compare(QStringLiteral("TASK"), Qt::CaseInsensitive) != 0) return -1;
    for (int c = 0; c < headers.size(); ++c)
        if (headers[c].compare(QStringLiteral("id"), Qt::CaseInsensitive) == 0) return c;
    return -1;
}

}  // namespace

QueryPanel::QueryPanel(QWidget* parent) : QWidget(parent) {
    initQueryResources();
    m_editor = new QPlainTextEdit(this);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setPlaceholderText(QStringLiteral("SELECT ... FROM TASK ...   (Ctrl+Enter runs; tables: docs/npudb-schema.md)"));
    m_examples = new QComboBox(this);
    m_examples->addItem(QStringLiteral("Examples…"), QString());
    // The examples are docs/queries/*.sql, compiled in (resources.qrc).
    for (const QString& name : QDir(QStringLiteral(":/queries")).entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name)) {
        QFile f(QStringLiteral(":/queries/") + name);
        if (f.open(QIODevice::ReadOnly)) m_examples->addItem(QString(name).chopped(4), QString::fromUtf8(f.readAll()));
    }
    m_run = new QPushButton(QStringLiteral("Run"), this);
    m_run->setToolTip(QStringLiteral("Run the query (Ctrl+Enter)"));
    m_stop = new QPushButton(QStringLiteral("Cancel"), this);
    m_stop->setEnabled(false);
    m_export = new QPushButton(QStringLiteral("Export CSV…"), this);
    m_export->setEnabled(false);
    m_status = new QLabel(QStringLiteral("No run open."), this);
    m_results = new RecordTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_results);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_examples);
    bar->addWidget(m_run);
    bar->addWidget(m_stop);
    bar->addWidget(m_export);
    bar->addWidget(m_status, 1);
    m_schema = new SchemaBrowser(this);
    auto* editorBox = new QWidget(this);
    auto* editorLayout = new QVBoxLayout(editorBox);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addLayout(bar);
    auto* work = new QSplitter(Qt::Vertical, this);
    work->addWidget(editorBox);
    work->addWidget(m_table);
    work->setSizes({200, 500});
    // The schema the full height on the left: beside the editor, where a name is typed.
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_schema);
    split->addWidget(work);
    split->setStretchFactor(1, 1);
    split->setSizes({260, 900});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    connect(m_examples, &QComboBox::activated, this, [this](int i) {
        const QString sql = m_examples->itemData(i).toString();
        if (!sql.isEmpty()) setQuery(sql);
    });
    connect(m_run, &QPushButton::clicked, this, &QueryPanel::run);
    connect(m_stop, &QPushButton::clicked, this, &QueryPanel::cancel);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, QStringLiteral("Export Query Results"), QString(),
                                                          QStringLiteral("CSV (*.csv)"));
        QString error;
        if (!file.isEmpty() && !exportCsv(file, &error)) m_status->setText(error);
    });
    for (const QKeySequence& key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &QueryPanel::run);
    }
    m_escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    m_escape->setContext(Qt::WidgetWithChildrenShortcut);
    m_escape->setEnabled(false);
    connect(m_escape, &QShortcut::activated, this, &QueryPanel::cancel);
    connect(m_schema, &SchemaBrowser::nameActivated, this, [this](const QString& name) {
        m_editor->textCursor().insertText(name);
        m_editor->setFocus(Qt::OtherFocusReason);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (m_sliceColumn < 0 || !index.isValid()) return;
        bool ok = false;
        const qint64 id = m_results->index(index.row(), m_sliceColumn).data().toString().toLongLong(&ok);
        if (ok) emit sliceActivated(id);
    });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &QueryPanel::onFinished);
}

QueryPanel::~QueryPanel() {
    cancel();
    m_watcher.waitForFinished();
}

void QueryPanel::setDatabase(const std::filesystem::path& db) {
    cancel();
    m_watcher.waitForFinished();
    m_db = db;
    clearResults();
    const QString schemaProblem = m_schema->setDatabase(db);
    m_status->setText(db.empty() ? QStringLiteral("No run open.")
                      : schemaProblem.isEmpty() ? QStringLiteral("Ready: %1").arg(QString::fromStdString(db.filename().string()))
                                                : QStringLiteral("Schema not read: %1").arg(schemaProblem));
}

void QueryPanel::clearResults() {
    m_results->setHeaders({});  // the columns too: they are the previous statement's
    m_last = {};
    m_sliceColumn = -1;
    m_export->setEnabled(false);
    m_table->setToolTip(QString());
}

void QueryPanel::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    m_escape->setEnabled(running);
}

void QueryPanel::setQuery(const QString& sql) { m_editor->setPlainText(sql); }
QString QueryPanel::query() const { return m_editor->toPlainText(); }
QString QueryPanel::status() const { return m_status->text(); }

void QueryPanel::run() {
    if (m_db.empty() || isRunning() || query().trimmed().isEmpty()) return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    setRunning(true);
    m_status->setText(QStringLiteral("Running…"));
    const auto db = m_db;
    m_ranQuery = query();  // the editor may change while it runs
    const std::string sql = m_ranQuery.toStdString();
    auto cancelFlag = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([db, sql, cancelFlag] {
        Outcome out;
        auto r = profiler::runReadOnlyQuery(db, sql, cancelFlag.get());
        if (r) out.result = std::move(*r);
        else out.error = QString::fromStdString(r.message());
        return out;
    }));
}

void QueryPanel::cancel() {
    if (m_cancel) m_cancel->store(true);
}

void QueryPanel::onFinished() {
    setRunning(false);
    Outcome outcome = m_watcher.result();
    if (!outcome.error.isEmpty()) {
        // The table must not go on showing the previous query's rows under this error.
        clearResults();
        m_status->setText(outcome.error);
        emit finished(false);
        return;
    }
    m_last = std::move(outcome.result);
    QStringList headers;
    for (const auto& h : m_last.table.header) headers << QString::fromStdString(h);
    m_results->setHeaders(headers);
    std::vector<std::vector<RecordCell>> rows;
    rows.reserve(m_last.table.rows.size());
    for (const auto& r : m_last.table.rows) {
        std::vector<RecordCell> cells;
        cells.reserve(r.size());
        for (const auto& v : r) {
            const QString text = QString::fromStdString(v);
            bool isNumber = false;
            const double d = text.toDouble(&isNumber);
            cells.push_back(isNumber ? RecordCell(text, d) : RecordCell(text, text, text));
        }
        rows.push_back(std::move(cells));
    }
    m_results->setRows(std::move(rows));
    m_sliceColumn = sliceIdColumn(headers, m_ranQuery);
    m_table->setToolTip(m_sliceColumn >= 0 ? QStringLiteral("Double-click a row to show its slice on the timeline") : QString());
    // Columns fit their contents (long kernel names within reason); hover for the rest.
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_results->columnCount(); ++c)
        if (m_table->columnWidth(c) > 520) m_table->setColumnWidth(c, 520);
    m_export->setEnabled(true);
    const QString jump = m_sliceColumn >= 0 ? QStringLiteral(" · double-click a row for its slice on the timeline") : QString();
    m_status->setText(m_last.truncated() ? QStringLiteral("%1 rows (first %2 shown) in %3 s")
                                               .arg(m_last.totalRows)
                                               .arg(m_last.table.rows.size())
                                               .arg(m_last.seconds, 0, 'f', 3)
                                         : QStringLiteral("%1 rows in %2 s").arg(m_last.totalRows).arg(m_last.seconds, 0, 'f', 3) +
                      jump);
    emit finished(true);
}

bool QueryPanel::exportCsv(const QString& file, QString* error) const {
    if (Status st = profiler::writeCsv(m_last.table, file.toStdString()); !st) {
        if (error) *error = QString::fromStdString(st.message());
        return false;
    }
    return true;
}

}  // namespace npu::views
