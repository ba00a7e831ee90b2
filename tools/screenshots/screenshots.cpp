// npu-screenshots: saves the GUI as a user sees it, to look at the views under Xvfb
// (`import -window root` takes the screen; this takes each window). Not a test: the
// tests check the views; this only shows them.
//   npu-screenshots tabs RUN.npudb DIR [--compare B.npudb]   every tab, DIR/tab-N-NAME.png
//   npu-screenshots compare MEASURED.npudb SIM.npudb DIR     Compare, CPU operators, Host,
//                                                           Query and Memory, DIR/gui-*.png
//   npu-screenshots search DIR [--hold S]                    the strategy search on
//                                                           projects/llama-7b-cluster (a copy),
//                                                           mid-search and ranked, DIR/search_*.png
#include "app/main_window.h"
#include "engine/project/project.h"
#include "views/charts/memory_chart.h"
#include "views/dialogs/strategy_search_dialog.h"
#include "views/query/query_panel.h"
#include "views/tables/host_analysis_view.h"
#include "views/tables/op_stats_view.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QProgressBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <filesystem>
#include <functional>

using npu::app::MainWindow;
namespace views = npu::views;

namespace {

// Lets the window lay out and paint for `ms`.
void settle(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until `done` or `ms` have passed; returns done().
bool waitFor(const std::function<bool()>& done, int ms) {
    const QDeadlineTimer deadline(ms);
    while (!done() && !deadline.hasExpired()) settle(50);
    return done();
}

bool save(QWidget* w, const QString& file) {
    if (w->grab().save(file)) {
        std::printf("%s\n", qPrintable(file));
        return true;
    }
    std::fprintf(stderr, "npu-screenshots: could not write %s\n", qPrintable(file));
    return false;
}

void showWindow(MainWindow& w, int width, int height) {
    w.setShowDialogs(false);
    w.resize(width, height);
    w.show();
    settle(300);
}

int tabs(const QString& db, const QString& dir, const QString& compare) {
    MainWindow w;
    showWindow(w, 1600, 1000);
    if (!w.openPath(db) || (!compare.isEmpty() && !w.compareRuns(db, compare))) return 1;
    for (int i = 0; i < w.tabs()->count(); ++i) {
        if (!w.tabs()->isTabVisible(i)) continue;
        w.tabs()->setCurrentIndex(i);
        settle(300);
        if (!save(&w, QStringLiteral("%1/tab-%2-%3.png").arg(dir).arg(i).arg(w.tabs()->tabText(i)))) return 1;
    }
    return 0;
}

int compareViews(const QString& measured, const QString& sim, const QString& dir) {
    MainWindow w;
    showWindow(w, 1600, 1000);
    if (!w.compareRuns(measured, sim)) return 1;
    settle(1500);
    bool ok = save(&w, dir + QStringLiteral("/gui-compare.png"));
    if (!w.openDatabase(measured)) return 1;
    w.tabs()->setCurrentWidget(w.operators());
    QComboBox* device = w.operators()->deviceCombo();
    for (int i = 0; i < device->count(); ++i)
        if (device->itemText(i).compare(QStringLiteral("CPU"), Qt::CaseInsensitive) == 0) device->setCurrentIndex(i);
    settle(500);
    ok = save(&w, dir + QStringLiteral("/gui-operators-cpu.png")) && ok;
    w.tabs()->setCurrentWidget(w.hostView());
    waitFor([&] { return !w.hostView()->isComputing(); }, 60000);
    settle(500);
    ok = save(&w, dir + QStringLiteral("/gui-host.png")) && ok;
    w.tabs()->setCurrentWidget(w.queryPanel());
    bool queried = false;
    QObject::connect(w.queryPanel(), &views::QueryPanel::finished, [&](bool) { queried = true; });
    w.queryPanel()->examples()->setCurrentIndex(w.queryPanel()->examples()->findText(QStringLiteral("top_kernels")));
    w.queryPanel()->setQuery(w.queryPanel()->examples()->currentData().toString());
    w.queryPanel()->run();
    waitFor([&] { return queried; }, 30000);
    settle(300);
    ok = save(&w, dir + QStringLiteral("/gui-query.png")) && ok;
    w.tabs()->setCurrentWidget(w.memory());
    settle(500);
    return save(&w, dir + QStringLiteral("/gui-memory.png")) && ok ? 0 : 1;
}

int search(const QString& shots, int holdSeconds) {
    QTemporaryDir dir;
    auto p = npu::engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
    const QString file = dir.filePath(QStringLiteral("project.json"));
    if (!p || !npu::engine::saveProject(*p, file.toStdString()).ok()) {
        std::fprintf(stderr, "npu-screenshots: %s\n", p ? "could not copy the sample project" : p.message().c_str());
        return 1;
    }
    MainWindow window;
    showWindow(window, 1400, 860);
    if (!window.openProject(file, false)) return 1;
    views::StrategySearchDialog* dialog = window.searchStrategies();
    dialog->resize(1000, 640);
    dialog->start();
    waitFor([&] { return dialog->progressBar()->value() > 300 || !dialog->running(); }, 60000);
    bool ok = save(dialog, shots + QStringLiteral("/search_running.png"));
    waitFor([&] { return !dialog->running(); }, 120000);
    settle(200);  // the relayout after the result
    ok = save(dialog, shots + QStringLiteral("/search_ranked.png")) && ok;
    const int firstRejected = dialog->result() ? dialog->result()->feasibleCount : 0;
    if (firstRejected < dialog->table()->rowCount()) {
        dialog->table()->scrollToItem(dialog->table()->item(firstRejected, 0), QAbstractItemView::PositionAtCenter);
        ok = save(dialog, shots + QStringLiteral("/search_rejected.png")) && ok;
        dialog->table()->scrollToTop();
    }
    if (holdSeconds > 0) settle(holdSeconds * 1000);
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Saves NPU Studio's views as PNG files.\n"
                                                    "  tabs RUN.npudb DIR [--compare B.npudb]\n"
                                                    "  compare MEASURED.npudb SIM.npudb DIR\n"
                                                    "  search DIR [--hold S]"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("compare"), QStringLiteral("tabs: compare with this run."), QStringLiteral("B.npudb")});
    parser.addOption({QStringLiteral("hold"), QStringLiteral("search: keep the dialog on screen S seconds."), QStringLiteral("S")});
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("tabs, compare or search"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    const QString command = args.value(0);
    if (command == QStringLiteral("tabs") && args.size() == 3) return tabs(args[1], args[2], parser.value(QStringLiteral("compare")));
    if (command == QStringLiteral("compare") && args.size() == 4) return compareViews(args[1], args[2], args[3]);
    if (command == QStringLiteral("search") && args.size() == 2) return search(args[1], parser.value(QStringLiteral("hold")).toInt());
    std::fprintf(stderr, "npu-screenshots: expected tabs RUN.npudb DIR, compare MEASURED.npudb SIM.npudb DIR or search DIR\n");
    return 2;
}
