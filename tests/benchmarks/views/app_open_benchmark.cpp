// Opening a run in the whole app (issue 25, "the last slow opens"): the time from
// File > Open of a .npudb to the timeline's first painted frame, and to the event loop's
// first idle moment (every tab's first query started, the GUI thread free again), for a
// small run and a large one. The target: the large run's first frame within
// 0.5 s of the small one's. Prints figures; not a timed test.
//
//   app_open_benchmark SMALL.npudb LARGE.npudb [repeats=3]
//   (make_large_db LARGE.npudb 10000000 writes a 10M-slice file)

#include "app/main_window.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cstdio>
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
};

OpenTimes openOnce(const QString& file) {
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
    bool idle = false;
    QTimer::singleShot(0, [&] { idle = true; });
    while (!idle) QApplication::processEvents(QEventLoop::AllEvents, 5);
    t.idleMs = clock.nsecsElapsed() / 1e6;
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
        for (int r = 0; r < repeats; ++r) {
            const OpenTimes t = openOnce(QString::fromLocal8Bit(argv[1 + f]));
            open.push_back(t.openMs);
            frame.push_back(t.firstFrameMs);
            idle.push_back(t.idleMs);
        }
        first[f] = median(frame);
        std::printf("%-40s open %7.1f ms  first frame %7.1f ms  idle %7.1f ms  (median of %d)\n", argv[1 + f], median(open),
                    median(frame), median(idle), repeats);
    }
    std::printf("large - small first frame: %+.1f ms (target <= +500 ms)\n", first[1] - first[0]);
    return 0;
}
