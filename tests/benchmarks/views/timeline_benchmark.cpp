// Timeline at scale (issues 3 and 12): time from ProfileDb::open to the first painted
// timeline of a 1M- or 10M-slice .npudb (open, track metadata, first frame with the
// tracks' density summary, first frame with slices, everything loaded), resident memory
// at each stage and its growth over before opening, the time a jump takes to bring its
// window's slices (windowed files), and median frame times for full-range and zoomed
// views, each frame rendered offscreen into a QImage after a small pan or zoom. Prints
// figures; not a timed test.
//
//   timeline_benchmark [slices=1000000] [tracks=16] [width=1600] [height=900] [OUT.png]
//                      [--db FILE.npudb]   (reused when it exists, else written there)
//                      [--windowed-from N] (window slice tracks past N slices; default
//                                           TimelineWidget::kWindowedSlices)

#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/timeline/timeline_widget.h"

#include "views/timeline/timeline_data.h"

#include <QApplication>
#include <QEventLoop>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <time.h>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/resource.h>

using namespace npu;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// Renders `frames` frames, calling `step(i)` before each; returns per-frame ms (the
// draw-list rebuild that follows a range change plus the paint).
// CPU time of this thread: on a machine shared with other builds, wall time includes
// waiting for a core; both are printed.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct FrameTimes {
    std::vector<double> wall;
    std::vector<double> cpu;
};

template <typename Step>
FrameTimes timeFrames(views::TimelineWidget& w, QImage& img, int frames, Step step)
{
    FrameTimes out;
    for (int i = 0; i < frames; ++i) {
        const auto t = Clock::now();
        const double c = threadCpuMs();
        step(i);
        QCoreApplication::processEvents();  // windows that arrived (large files) go in, as in the app
        w.render(&img);
        out.wall.push_back(msSince(t));
        out.cpu.push_back(threadCpuMs() - c);
    }
    return out;
}

// Peak resident set so far (Linux reports ru_maxrss in KiB), what /usr/bin/time -v shows.
double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Resident set now (VmRSS, KiB in /proc/self/status): the peak above includes writing
// the synthetic file in this process; growth over the RSS before opening is the viewer's.
double rssMb()
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    double kb = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmRSS:", 6) == 0)
            kb = std::atof(line + 6);
    std::fclose(f);
    return kb / 1024.0;
}

// Windowed files load what a new view needs on a worker: waits for it, returns the ms.
double waitForWindows(views::TimelineWidget& w)
{
    const auto t = Clock::now();
    QCoreApplication::processEvents();
    if (w.isLoadingWindows()) {
        QEventLoop loop;
        QObject::connect(&w, &views::TimelineWidget::windowsLoaded, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return msSince(t);
}

void printFrames(const char* what, const views::TimelineWidget& w, const FrameTimes& f)
{
    std::printf("%s (%d rects, %d folded): median %.2f ms wall (p90 %.2f), median %.2f ms CPU per frame "
                "(target < 16)\n",
                what, w.drawnItemCount(), w.foldedBlockCount(), median(f.wall), percentile(f.wall, 0.9),
                median(f.cpu));
}

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<const char*> pos;
    const char* dbArg = nullptr;
    long long windowedFrom = views::TimelineWidget::kWindowedSlices;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            dbArg = argv[++i];
        else if (std::strcmp(argv[i], "--windowed-from") == 0 && i + 1 < argc)
            windowedFrom = std::atoll(argv[++i]);
        else
            pos.push_back(argv[i]);
    }
    const auto arg = [&](std::size_t i) { return i < pos.size() ? pos[i] : nullptr; };
    const std::int64_t slices = arg(0) ? std::atoll(arg(0)) : 1'000'000;
    const int tracks = arg(1) ? std::atoi(arg(1)) : 16;
    const int width = arg(2) ? std::atoi(arg(2)) : 1600;
    const int height = arg(3) ? std::atoi(arg(3)) : 900;

    QTemporaryDir dir;
    const std::filesystem::path path =
        dbArg ? std::filesystem::path(dbArg) : std::filesystem::path((dir.path() + QStringLiteral("/bench.npudb")).toStdString());
    auto t = Clock::now();
    if (dbArg && std::filesystem::exists(path)) {
        std::printf("reusing %s (%.0f MB)\n", path.c_str(), std::filesystem::file_size(path) / 1e6);
    } else {
        if (auto st = profiler::writeSyntheticDb(path, slices, tracks, 7); !st) {
            std::fprintf(stderr, "synthetic db: %s\n", st.message().c_str());
            return 1;
        }
        std::printf("synthetic .npudb: %lld slices, %d tracks, %.0f MB, written in %.2f s\n",
                    static_cast<long long>(slices), tracks, std::filesystem::file_size(path) / 1e6, msSince(t) / 1000);
    }
    const double rssBefore = rssMb();
    std::printf("before opening: RSS %.0f MB (peak so far %.0f MB)\n", rssBefore, peakRssMb());

    views::TimelineWidget w;
    w.resize(width, height);
    w.setWindowing(windowedFrom, views::TimelineWidget::kWindowBudgetSlices);
    QImage img(width, height, QImage::Format_ARGB32_Premultiplied);

    // Open -> first painted frames. Past TimelineWidget::kSyncLoadSlices the widget
    // paints the track skeleton at once and fills tracks in from a worker thread, top
    // first; we time the skeleton, the first frame with slices, and the complete one.
    std::clock_t cpu0 = std::clock();
    t = Clock::now();
    auto opened = profiler::ProfileDb::open(path);
    if (!opened) {
        std::fprintf(stderr, "open: %s\n", opened.message().c_str());
        return 1;
    }
    const double openMs = msSince(t);
    double firstSlicesMs = -1;
    double firstSlicesPaintMs = 0;
    QObject::connect(&w, &views::TimelineWidget::loadProgress, &w, [&](int done, int) {
        if (firstSlicesMs < 0 && w.itemCount() > 0) {
            const auto p = Clock::now();
            w.render(&img);
            firstSlicesPaintMs = msSince(p);
            firstSlicesMs = msSince(t);
            (void)done;
        }
    });
    w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*opened)));
    const double setMs = msSince(t);
    w.render(&img);
    const double skeletonMs = msSince(t);
    const double skeletonRss = rssMb();
    if (w.isLoading()) {
        QEventLoop loop;
        QObject::connect(&w, &views::TimelineWidget::loadingFinished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    waitForWindows(w);
    w.render(&img);
    const double allMs = msSince(t);
    const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::printf("open -> first painted frame: %.1f ms (ProfileDb::open %.1f, setDatabase = track metadata %.1f; %s)"
                "  (target < 500)\n",
                skeletonMs, openMs, setMs,
                w.itemCount() > 0 && firstSlicesMs < 0 ? "all slices" : "tracks drawn from their density summary");
    std::printf("RSS at the first painted frame: %.0f MB (+%.0f MB)\n", skeletonRss, skeletonRss - rssBefore);
    if (firstSlicesMs >= 0)
        std::printf("open -> first painted frame with slices: %.1f ms (paint %.1f)  (target < 500)\n", firstSlicesMs,
                    firstSlicesPaintMs);
    std::printf("open -> all %d slices the view needs loaded and painted (of %lld): %.1f ms wall, %.1f ms CPU of "
                "this process; RSS %.0f MB (+%.0f MB)\n",
                w.itemCount(), static_cast<long long>(w.data() ? w.data()->totalSlices() : 0), allMs, cpuMs, rssMb(),
                rssMb() - rssBefore);

    const auto full = w.fullRange();
    const qint64 span = full.second - full.first;
    // Full range: small pans back and forth (the viewport allows 10 % of air).
    const auto fullMs = timeFrames(w, img, 50, [&](int i) {
        const qint64 shift = (i % 2 ? 1 : -1) * span / 200;
        w.setViewRange(full.first + shift, full.second + shift);
    });
    printFrames("full range", w, fullMs);

    // Zoomed: 1 % of the trace around the middle, panning and zooming a little each frame.
    const qint64 mid = full.first + span / 2;
    qint64 zspan = span / 100;
    w.setViewRange(mid - zspan / 2, mid + zspan / 2);
    {
        const double ms = waitForWindows(w);
        std::printf("jump to 1%%: slices in view after %.1f ms (%d held)\n", ms, w.itemCount());
    }
    const auto zoomMs = timeFrames(w, img, 50, [&](int i) {
        const qint64 c = mid + (i - 25) * zspan / 50;
        zspan = (i % 4 < 2) ? zspan * 9 / 10 : zspan * 10 / 9;
        w.setViewRange(c - zspan / 2, c + zspan / 2);
    });
    printFrames("zoomed to 1%", w, zoomMs);

    // Panning at 1 % by half a view a frame: windowed files keep leaving their windows, so
    // this is the frame cost while windows stream in (tracks not yet covered show their
    // summary for a frame or two).
    const qint64 pan0 = mid - span / 10;
    const auto panMs = timeFrames(w, img, 50, [&](int i) {
        w.setViewRange(pan0 + i * (span / 200), pan0 + i * (span / 200) + span / 100);
    });
    printFrames("panning at 1%, half a view a frame", w, panMs);
    {
        const double ms = waitForWindows(w);
        std::printf("  then the last view's windows in %.1f ms (%d held)\n", ms, w.itemCount());
    }

    // Deep zoom: ~20 slices per track visible, labels drawn.
    w.setViewRange(mid, mid + span / 20000);
    {
        const double ms = waitForWindows(w);
        std::printf("jump to deep zoom: slices in view after %.1f ms (%d held)\n", ms, w.itemCount());
    }
    const auto deepMs = timeFrames(w, img, 50, [&](int i) {
        w.setViewRange(mid + i * span / 400000, mid + i * span / 400000 + span / 20000);
    });
    printFrames("deep zoom", w, deepMs);
    waitForWindows(w);
    std::printf("memory after open and navigation: RSS %.0f MB, +%.0f MB over before opening (peak RSS %.0f MB, "
                "%d slices held)\n",
                rssMb(), rssMb() - rssBefore, peakRssMb(), w.itemCount());
    if (arg(4))
        img.save(QString::fromLocal8Bit(arg(4)));
    return 0;
}
