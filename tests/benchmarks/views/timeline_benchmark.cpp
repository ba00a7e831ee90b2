// Timeline at scale (issue 3): time from ProfileDb::open to the first painted timeline
// of a 1M-slice .npudb, and median frame times for full-range and zoomed views, each
// frame rendered offscreen into a QImage after a small pan or zoom.
//
//   timeline_benchmark [slices=1000000] [tracks=16] [width=1600] [height=900]

#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

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
template <typename Step>
std::vector<double> timeFrames(views::TimelineWidget& w, QImage& img, int frames, Step step)
{
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
        const auto t = Clock::now();
        step(i);
        w.render(&img);
        ms.push_back(msSince(t));
    }
    return ms;
}

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::int64_t slices = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const int tracks = argc > 2 ? std::atoi(argv[2]) : 16;
    const int width = argc > 3 ? std::atoi(argv[3]) : 1600;
    const int height = argc > 4 ? std::atoi(argv[4]) : 900;

    QTemporaryDir dir;
    const std::filesystem::path path = (dir.path() + QStringLiteral("/bench.npudb")).toStdString();
    auto t = Clock::now();
    if (auto st = profiler::writeSyntheticDb(path, slices, tracks, 7); !st) {
        std::fprintf(stderr, "synthetic db: %s\n", st.message().c_str());
        return 1;
    }
    std::printf("synthetic .npudb: %lld slices, %d tracks, %.0f MB, written in %.2f s\n",
                static_cast<long long>(slices), tracks, std::filesystem::file_size(path) / 1e6, msSince(t) / 1000);

    views::TimelineWidget w;
    w.resize(width, height);
    QImage img(width, height, QImage::Format_ARGB32_Premultiplied);

    // Open -> first painted frame, split into its phases.
    t = Clock::now();
    auto opened = profiler::ProfileDb::open(path);
    if (!opened) {
        std::fprintf(stderr, "open: %s\n", opened.message().c_str());
        return 1;
    }
    const double openMs = msSince(t);
    const auto tLoad = Clock::now();
    w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*opened)));
    const double loadMs = msSince(tLoad);
    const auto tPaint = Clock::now();
    w.render(&img);
    const double paintMs = msSince(tPaint);
    const double firstMs = msSince(t);
    std::printf("open -> first painted timeline: %.1f ms (target < 500)  [ProfileDb::open %.1f, load slices %.1f, "
                "first paint %.1f]; %d slices loaded, %d rects drawn, %d folded\n",
                firstMs, openMs, loadMs, paintMs, w.itemCount(), w.drawnItemCount(), w.foldedBlockCount());

    const auto full = w.fullRange();
    const qint64 span = full.second - full.first;
    // Full range: small pans back and forth (the viewport allows 10 % of air).
    const auto fullMs = timeFrames(w, img, 50, [&](int i) {
        const qint64 shift = (i % 2 ? 1 : -1) * span / 200;
        w.setViewRange(full.first + shift, full.second + shift);
    });
    std::printf("full range (%d rects, %d folded): median %.2f ms, p90 %.2f ms per frame (target < 16)\n",
                w.drawnItemCount(), w.foldedBlockCount(), median(fullMs), percentile(fullMs, 0.9));

    // Zoomed: 1 % of the trace around the middle, panning and zooming a little each frame.
    const qint64 mid = full.first + span / 2;
    qint64 zspan = span / 100;
    w.setViewRange(mid - zspan / 2, mid + zspan / 2);
    const auto zoomMs = timeFrames(w, img, 50, [&](int i) {
        const qint64 c = mid + (i - 25) * zspan / 50;
        zspan = (i % 4 < 2) ? zspan * 9 / 10 : zspan * 10 / 9;
        w.setViewRange(c - zspan / 2, c + zspan / 2);
    });
    std::printf("zoomed to 1%% (%d rects, %d folded): median %.2f ms, p90 %.2f ms per frame (target < 16)\n",
                w.drawnItemCount(), w.foldedBlockCount(), median(zoomMs), percentile(zoomMs, 0.9));

    // Deep zoom: ~20 slices per track visible, labels drawn.
    w.setViewRange(mid, mid + span / 20000);
    const auto deepMs = timeFrames(w, img, 50, [&](int i) {
        w.setViewRange(mid + i * span / 400000, mid + i * span / 400000 + span / 20000);
    });
    std::printf("deep zoom (%d rects): median %.2f ms per frame\n", w.drawnItemCount(), median(deepMs));
    if (argc > 5)
        img.save(QString::fromLocal8Bit(argv[5]));
    return 0;
}
