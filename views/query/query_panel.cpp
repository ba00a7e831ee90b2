#include "views/query/query_panel.h"

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
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

// The examples' resource lives in this static library: register it once before use.
static void initQueryResources() { Q_INIT_RESOURCE(queries); }

namespace npu::views {

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
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_editor, 1);
    topLayout->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_table);
    split->setSizes({200, 500});
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
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &QueryPanel::cancel);
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
    m_results->clear();
    m_last = {};
    m_export->setEnabled(false);
    m_status->setText(db.empty() ? QStringLiteral("No run open.") : QStringLiteral("Ready: %1").arg(QString::fromStdString(db.filename().string())));
}

void QueryPanel::setQuery(const QString& sql) { m_editor->setPlainText(sql); }
QString QueryPanel::query() const { return m_editor->toPlainText(); }
QString QueryPanel::status() const { return m_status->text(); }

void QueryPanel::run() {
    if (m_db.empty() || isRunning() || query().trimmed().isEmpty()) return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_status->setText(QStringLiteral("Running…"));
    const auto db = m_db;
    const std::string sql = query().toStdString();
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
    m_run->setEnabled(true);
    m_stop->setEnabled(false);
    Outcome outcome = m_watcher.result();
    if (!outcome.error.isEmpty()) {
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
    // Columns fit their contents (long kernel names within reason); hover for the rest.
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_results->columnCount(); ++c)
        if (m_table->columnWidth(c) > 520) m_table->setColumnWidth(c, 520);
    m_export->setEnabled(true);
    m_status->setText(m_last.truncated() ? QStringLiteral("%1 rows (first %2 shown) in %3 s")
                                               .arg(m_last.totalRows)
                                               .arg(m_last.table.rows.size())
                                               .arg(m_last.seconds, 0, 'f', 3)
                                         : QStringLiteral("%1 rows in %2 s").arg(m_last.totalRows).arg(m_last.seconds, 0, 'f', 3));
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
