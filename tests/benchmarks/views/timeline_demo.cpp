// Looks at the timeline as a user would: opens a .npudb, a trace (imported to a temporary
// .npudb) or a synthetic database in a TimelineView, optionally selects a slice, selects a
// range or searches, and either shows the window or saves a screenshot.
//
//   timeline_demo [FILE.npudb|TRACE.json[.gz]|--synthetic N] [--select ID] [--range T0 T1]
//                 [--find TEXT] [--zoom T0 T1] [--screenshot OUT.png] [--size WxH] [--keep-db OUT.npudb]
//                 [--no-wait]   (a large file: show the first frame, tracks still loading)

#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QMouseEvent>
#include <QPixmap>
#include <QTemporaryDir>

#include <cstdio>

using namespace npu;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral(".npudb or trace to open"));
    const QCommandLineOption synthetic(QStringLiteral("synthetic"), QStringLiteral("synthetic slices"), QStringLiteral("N"));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("slice id to select"), QStringLiteral("ID"));
    const QCommandLineOption range(QStringLiteral("range"), QStringLiteral("range \"T0 T1\" (ns from trace start)"),
                                   QStringLiteral("T0 T1"));
    const QCommandLineOption zoom(QStringLiteral("zoom"), QStringLiteral("view \"T0 T1\" (ns from trace start)"),
                                  QStringLiteral("T0 T1"));
    const QCommandLineOption find(QStringLiteral("find"), QStringLiteral("search text"), QStringLiteral("TEXT"));
    const QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("save PNG and exit"), QStringLiteral("PNG"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("window size"), QStringLiteral("WxH"),
                                  QStringLiteral("1500x800"));
    const QCommandLineOption keep(QStringLiteral("keep-db"), QStringLiteral("where to keep an imported trace's .npudb"),
                                  QStringLiteral("NPUDB"));
    const QCommandLineOption hover(QStringLiteral("hover"), QStringLiteral("move the mouse to widget x,y"),
                                   QStringLiteral("X,Y"));
    const QCommandLineOption noWait(QStringLiteral("no-wait"), QStringLiteral("do not wait for the tracks to load"));
    parser.addOptions({synthetic, select, range, zoom, find, shot, size, keep, hover, noWait});
    parser.process(app);

    QTemporaryDir tmp;
    std::filesystem::path dbPath;
    if (parser.isSet(synthetic)) {
        dbPath = (tmp.path() + QStringLiteral("/synthetic.npudb")).toStdString();
        if (auto st = profiler::writeSyntheticDb(dbPath, parser.value(synthetic).toLongLong(), 8, 1); !st) {
            std::fprintf(stderr, "%s\n", st.message().c_str());
            return 1;
        }
    } else if (!parser.positionalArguments().isEmpty()) {
        dbPath = parser.positionalArguments().first().toStdString();
        if (dbPath.extension() != ".npudb") {
            const std::filesystem::path out = parser.isSet(keep) ? parser.value(keep).toStdString()
                                                                 : (tmp.path() + QStringLiteral("/import.npudb")).toStdString();
            auto imported = profiler::importTrace(dbPath, out);
            if (!imported) {
                std::fprintf(stderr, "%s\n", imported.message().c_str());
                return 1;
            }
            dbPath = out;
        }
    } else {
        parser.showHelp(2);
    }
    auto db = profiler::ProfileDb::open(dbPath);
    if (!db) {
        std::fprintf(stderr, "%s\n", db.message().c_str());
        return 1;
    }
    views::TimelineView view;
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    view.resize(wh.value(0).toInt(), wh.value(1).toInt());
    view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
    views::TimelineWidget* tl = view.timeline();
    if (tl->isLoading() && !parser.isSet(noWait)) {
        QEventLoop loop;
        QObject::connect(tl, &views::TimelineWidget::loadingFinished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const qint64 start = tl->fullRange().first;
    const auto pair = [&](const QCommandLineOption& o) {
        const QStringList v = parser.value(o).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        return QPair<qint64, qint64>(start + v.value(0).toLongLong(), start + v.value(1).toLongLong());
    };
    if (parser.isSet(zoom))
        tl->setViewRange(pair(zoom).first, pair(zoom).second);
    if (parser.isSet(range))
        tl->setSelectedRange(pair(range).first, pair(range).second);
    if (parser.isSet(select))
        tl->selectSlice(parser.value(select).toLongLong());
    if (parser.isSet(find)) {
        view.showSearch();
        view.searchBar()->setQuery(parser.value(find));
        view.nextMatch();
    }
    // Windowed files (past TimelineWidget::kWindowedSlices) read the view's slices now.
    if (tl->isLoadingWindows() && !parser.isSet(noWait)) {
        QEventLoop loop;
        QObject::connect(tl, &views::TimelineWidget::windowsLoaded, &loop, &QEventLoop::quit);
        loop.exec();
    }
    view.show();
    if (parser.isSet(hover)) {
        const QStringList xy = parser.value(hover).split(QLatin1Char(','));
        const QPointF pos(xy.value(0).toDouble(), xy.value(1).toDouble());
        QMouseEvent move(QEvent::MouseMove, pos, tl->mapToGlobal(pos), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(tl, &move);
    }
    if (parser.isSet(shot)) {
        app.processEvents();
        const bool ok = view.grab().save(parser.value(shot));
        std::printf("%s %s (%d slices, %d tracks)\n", ok ? "saved" : "FAILED to save", qPrintable(parser.value(shot)),
                    tl->itemCount(), tl->trackCount());
        return ok ? 0 : 1;
    }
    return app.exec();
}
