// TimelineWidget: loading large databases track by track off the GUI thread.
#include "views/timeline/timeline_widget.h"

#include "profiler/store/profile_db.h"
#include "views/timeline/timeline_widget_state.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace npu::views {

bool TimelineWidget::isLoading() const { return m_state->data && m_state->data->pendingTracks() > 0; }

bool TimelineWidget::isLoadingWindows() const { return m_state->windowBusy; }

void TimelineWidget::cancelLoading()
{
    State& s = *m_state;
    ++s.generation;
    if (s.cancelLoad)
        *s.cancelLoad = true;
    // The worker finishes the track in hand (tens of ms at most) and stops; waiting keeps
    // it from outliving the widget it posts to.
    for (QFuture<void>& loader : s.loaders)
        loader.waitForFinished();
    s.loaders.clear();
    s.windowLoader.waitForFinished();
    s.windowBusy = false;
    s.cancelLoad.reset();
}

void TimelineWidget::startLoading()
{
    State& s = *m_state;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    s.cancelLoad = cancel;
    const int generation = s.generation;
    // Top of the layout first, so what the user sees fills in first.
    std::vector<std::pair<int, profiler::TrackRow>> order;
    for (const LayoutRow& row : s.layout.rows) {
        // Windowed tracks are read by range (requestWindows), never whole.
        const TimelineTrack& track = s.data->tracks()[static_cast<std::size_t>(row.track)];
        if (row.kind == LayoutRow::Kind::track && !track.loaded && !track.windowed)
            order.emplace_back(row.track, s.data->tracks()[static_cast<std::size_t>(row.track)].row);
    }
    const int total = static_cast<int>(order.size());
    const std::filesystem::path path = s.db->path();
    auto shared = std::make_shared<const std::vector<std::pair<int, profiler::TrackRow>>>(std::move(order));
    auto next = std::make_shared<std::atomic<int>>(0);
    auto done = std::make_shared<std::atomic<int>>(0);
    // Two workers, each with its own connection (SQLite serialises statements on one),
    // pulling tracks in layout order: reading rows is CPU-bound, so two cores halve it.
    const int workers = std::clamp(QThread::idealThreadCount(), 1, 2);
    for (int w = 0; w < workers; ++w) {
        s.loaders.push_back(QtConcurrent::run([this, path, shared, next, done, cancel, generation, total] {
            auto db = profiler::ProfileDb::open(path, /*oneThread=*/true);  // this worker's own
            for (int k = (*next)++; k < total; k = (*next)++) {
                if (*cancel)
                    return;
                const auto& [index, row] = (*shared)[static_cast<std::size_t>(k)];
                auto track = std::make_shared<TimelineTrack>();
                if (db)
                    *track = TimelineData::loadTrack(**db, row);
                else
                    track->row = row;  // unreadable: delivered empty rather than pending forever
                const int finished = ++(*done);
                QMetaObject::invokeMethod(
                    this,
                    [this, index = index, track, generation, finished, total] {
                        State& st = *m_state;
                        if (generation != st.generation || !st.data)
                            return;
                        st.data->fillTrack(index, std::move(*track));
                        relayout();
                        // Draw lists are rebuilt by the next paint, once for however many
                        // tracks arrived since: many small tracks cost one rebuild, not one each.
                        st.listsDirty = true;
                        update();
                        emit loadProgress(finished, total);
                        if (st.data->pendingTracks() == 0)
                            emit loadingFinished();
                    },
                    Qt::QueuedConnection);
            }
        }));
    }
}

}  // namespace npu::views
