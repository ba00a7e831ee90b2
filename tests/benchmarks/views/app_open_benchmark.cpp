// Opening a run in the whole app (issue 25, "the last slow opens"): the time from
// File > Open of a .npudb to the timeline's first painted frame, and to the event loop's
// first idle moment (every tab's first query started, the GUI thread free again), for a
// small run and a large one. The target: the large run's first frame within
// 0.5 s of the small one's. Then, once per file, each visible tab in turn: the time from
// switching to it until the GUI thread is free again (a tab whose first query ran on the
// GUI thread shows here; one that runs it in a worker shows its progress state at once).
// Prints figures; not a timed test.
//
//   app_open_benchmark SMALL.npudb LARGE.npudb [repeats=3]
//   (make_large_db LARGE.npudb 10000000 writes a 10M-slice file)

#include "app/main_window.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

// Counts the paints of one widget.
class PaintWatch : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::Paint) ++paints;
        return QObject::eventFilter(watched, e);
    }
};

struct OpenTimes {
    double openMs = 0, firstFrameMs = 0, idleMs = 0;
    std::vector<std::pair<QString, double>> tabSwitchMs;  // each visible tab: switch to idle
};

// Runs the queued events until a zero-timer fires (the event loop's first idle moment).
void untilIdle() {
    bool idle = false;
    QTimer::singleShot(0, [&] { idle = true; });
    while (!idle) QApplication::processEvents(QEventLoop::AllEvents, 5);
}

OpenTimes openOnce(const QString& file, bool visitTabs) {
    npu::app::MainWindow window;
    window.resize(1600, 900);
    window.show();
    QApplication::processEvents();
    auto* timeline = window.findChild<npu::views::TimelineWidget*>();
    PaintWatch watch;
    if (timeline) timeline->installEventFilter(&watch);
    OpenTimes t;
    QElapsedTimer clock;
    clock.start();
    window.openDatabase(file);
    t.openMs = clock.nsecsElapsed() / 1e6;
    const int before = watch.paints;
    while (watch.paints == before && clock.elapsed() < 30000) QApplication::processEvents(QEventLoop::AllEvents, 5);
    t.firstFrameMs = clock.nsecsElapsed() / 1e6;
    // Idle: a zero-timer fires only once the queued events are handled.
    untilIdle();
    t.idleMs = clock.nsecsElapsed() / 1e6;
    if (!visitTabs) return t;
    QTabWidget* tabs = nullptr;
    for (auto* candidate : window.findChildren<QTabWidget*>())
        if (candidate->indexOf(timeline ? static_cast<QWidget*>(timeline->parentWidget()) : nullptr) >= 0 || candidate->count() >= 6) {
            tabs = candidate;
            break;
        }
    if (!tabs) return t;
    for (int i = 0; i < tabs->count(); ++i) {
        if (!tabs->isTabVisible(i)) continue;
        clock.restart();
        tabs->setCurrentIndex(i);
        untilIdle();
        t.tabSwitchMs.emplace_back(tabs->tabText(i), clock.nsecsElapsed() / 1e6);
    }
    return t;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    QStandardPaths::setTestModeEnabled(true);  // recent files and settings stay out of the user's
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s SMALL.npudb LARGE.npudb [repeats=3]\n", argv[0]);
        return 2;
    }
    const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    double first[2] = {0, 0};
    for (int f = 0; f < 2; ++f) {
        std::vector<double> open, frame, idle;
        std::vector<std::pair<QString, double>> tabSwitch;
        for (int r = 0; r < repeats; ++r) {
            const OpenTimes t = openOnce(QString::fromLocal8Bit(argv[1 + f]), r == repeats - 1);
            open.push_back(t.openMs);
            frame.push_back(t.firstFrameMs);
            idle.push_back(t.idleMs);
            if (!t.tabSwitchMs.empty()) tabSwitch = t.tabSwitchMs;
        }
        first[f] = median(frame);
        std::printf("%-40s open %7.1f ms  first frame %7.1f ms  idle %7.1f ms  (median of %d)\n", argv[1 + f], median(open),
                    median(frame), median(idle), repeats);
        std::printf("  tab switch to idle (GUI thread busy):");
        for (const auto& [name, ms] : tabSwitch) std::printf("  %s %.1f ms", qPrintable(name), ms);
        std::printf("\n");
    }
    std::printf("large - small first frame: %+.1f ms (target <= +500 ms)\n", first[1] - first[0]);
    return 0;
}
