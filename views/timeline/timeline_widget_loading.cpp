// TimelineWidget: loading large databases track by track off the GUI thread.
#include "views/timeline/timeline_widget.h"

#include "profiler/store/profile_db.h"
#include "views/timeline/timeline_widget_state.h"

#include <QtConcurrent/QtConcurrentRun>

namespace npu::views {

bool TimelineWidget::isLoading() const { return m_state->data && m_state->data->pendingTracks() > 0; }

void TimelineWidget::cancelLoading()
{
    State& s = *m_state;
    ++s.generation;
    if (s.cancelLoad)
        *s.cancelLoad = true;
    // The worker finishes the track in hand (tens of ms at most) and stops; waiting keeps
    // it from outliving the widget it posts to.
    if (s.loader.isRunning())
        s.loader.waitForFinished();
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
        if (row.kind == LayoutRow::Kind::track)
            order.emplace_back(row.track, s.data->tracks()[static_cast<std::size_t>(row.track)].row);
    }
    const int total = static_cast<int>(order.size());
    const std::filesystem::path path = s.db->path();
    s.loader = QtConcurrent::run([this, path, order = std::move(order), cancel, generation, total] {
        // A connection of its own: the GUI thread keeps querying details meanwhile.
        auto db = profiler::ProfileDb::open(path);
        int done = 0;
        for (const auto& [index, row] : order) {
            if (*cancel)
                return;
            auto track = std::make_shared<TimelineTrack>();
            if (db)
                *track = TimelineData::loadTrack(**db, row);
            else
                track->row = row;  // unreadable: delivered empty rather than pending forever
            ++done;
            QMetaObject::invokeMethod(
                this,
                [this, index = index, track, generation, done, total] {
                    State& st = *m_state;
                    if (generation != st.generation || !st.data)
                        return;
                    st.data->fillTrack(index, std::move(*track));
                    relayout();
                    st.listsDirty = true;
                    rebuildLists();
                    update();
                    emit loadProgress(done, total);
                    if (st.data->pendingTracks() == 0)
                        emit loadingFinished();
                },
                Qt::QueuedConnection);
        }
    });
}

}  // namespace npu::views
