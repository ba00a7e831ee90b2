// TimelineWidget: windowed slice tracks for large files (issue 12). Each view change asks
// for the slices overlapping the view plus a view's width on each side, per track, read
// by range query on a worker's own connection; a view holding more than the budget is
// painted from the import-time summaries and its windows are freed. Resident memory is
// then bounded by the budget, whatever the file's size.
#include "views/timeline/timeline_widget.h"

#include "profiler/store/profile_db.h"
#include "views/timeline/timeline_widget_state.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace npu::views {

namespace {

struct WindowRequest {
    int track = -1;
    std::int64_t w0 = 0;
    std::int64_t w1 = 0;
};

}  // namespace

void TimelineWidget::setWindowing(qint64 fromSlices, qint64 budgetSlices)
{
    m_state->windowedFrom = fromSlices;
    m_state->windowBudget = budgetSlices;
}

void TimelineWidget::requestWindows()
{
    State& s = *m_state;
    if (!s.data || !s.data->windowed() || !s.db)
        return;
    if (s.windowBusy)
        return;  // the batch in flight asks again when it is done
    const std::int64_t t0 = s.viewport.t0();
    const std::int64_t t1 = s.viewport.t1();
    const std::int64_t span = std::max<std::int64_t>(1, t1 - t0);
    const auto& tracks = s.data->tracks();
    std::vector<int> shown;
    for (const LayoutRow& row : s.layout.rows)
        if (row.kind == LayoutRow::Kind::track && tracks[static_cast<std::size_t>(row.track)].windowed)
            shown.push_back(row.track);
    const std::int64_t budget =
        std::max<std::int64_t>(1'000, s.windowBudget / std::max<std::int64_t>(1, static_cast<std::int64_t>(shown.size())));
    const profiler::DensityGrid grid = s.data->grid();
    s.summaryOnly.assign(tracks.size(), 0);
    // Hidden and collapsed tracks give their windows back: the budget is over what is shown.
    std::vector<char> isShown(tracks.size(), 0);
    for (const int t : shown)
        isShown[static_cast<std::size_t>(t)] = 1;
    bool dropped = false;
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].windowed && tracks[t].loaded && !isShown[t]) {
            s.data->dropWindow(static_cast<int>(t));
            dropped = true;
        }
    }
    std::vector<WindowRequest> requests;
    for (const int t : shown) {
        const TimelineTrack& tr = tracks[static_cast<std::size_t>(t)];
        const auto estimate = [&](std::int64_t a, std::int64_t b) {
            return profiler::estimateWindowSlices(*tr.summary, grid, a, b);
        };
        // What to hold: the view and a view's width each side, or the view alone when
        // that is over the budget, or nothing (the summary) when even the view is. Not
        // clipped to the trace: a window must cover the air around it to be drawn.
        std::int64_t w0 = t0 - span;
        std::int64_t w1 = t1 + span;
        if (estimate(w0, w1) > budget) {
            w0 = t0;
            w1 = t1;
        }
        if (estimate(w0, w1) > budget) {
            s.summaryOnly[static_cast<std::size_t>(t)] = 1;
            if (tr.loaded) {
                s.data->dropWindow(t);
                dropped = true;
            }
            continue;
        }
        if (tr.loaded && estimate(tr.window0, tr.window1) <= budget) {
            // The window in hand still covers the view with a quarter of a view to spare
            // each side, or is all the budget allows: keep it.
            const bool slack = tr.window0 <= t0 - span / 4 && t1 + span / 4 <= tr.window1;
            if (slack || (tr.window0 <= w0 && w1 <= tr.window1))
                continue;
        }
        requests.push_back(WindowRequest{t, w0, w1});
    }
    if (dropped) {
        // Refs into the freed windows must not outlive them.
        s.hovered = {};
        resolveHeldSlices();
    }
    if (requests.empty())
        return;
    s.windowBusy = true;
    if (!s.windowDb)
        s.windowDb = std::make_shared<std::unique_ptr<profiler::ProfileDb>>();
    if (!s.cancelLoad)
        s.cancelLoad = std::make_shared<std::atomic<bool>>(false);
    const auto cancel = s.cancelLoad;
    const auto conn = s.windowDb;
    const std::filesystem::path path = s.db->path();
    const TimelineData* data = s.data.get();  // tracks' rows and summaries: fixed until cancelLoading()
    const int generation = s.generation;
    s.windowLoader = QtConcurrent::run([this, requests, cancel, conn, path, data, grid, generation] {
        if (!*conn) {
            if (auto db = profiler::ProfileDb::open(path, /*oneThread=*/true); db)
                *conn = std::move(*db);
        }
        for (const WindowRequest& r : requests) {
            if (*cancel)
                return;
            auto window = std::make_shared<TimelineTrack>();
            if (*conn) {
                *window = TimelineData::loadWindow(**conn, data->tracks()[static_cast<std::size_t>(r.track)], grid, r.w0,
                                                   r.w1);
            } else {
                // Unreadable: an empty window, so the view does not ask again and again.
                window->window0 = r.w0;
                window->window1 = r.w1;
            }
            QMetaObject::invokeMethod(
                this,
                [this, window, track = r.track, generation] {
                    State& st = *m_state;
                    if (generation != st.generation || !st.data)
                        return;
                    st.data->fillWindow(track, std::move(*window));
                    windowFilled(track);
                },
                Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation] {
                State& st = *m_state;
                if (generation != st.generation)
                    return;
                st.windowBusy = false;
                // The view may have moved meanwhile: the rebuild asks for its windows.
                st.listsDirty = true;
                rebuildLists();
                update();
                if (!st.windowBusy)
                    emit windowsLoaded();
            },
            Qt::QueuedConnection);
    });
}

void TimelineWidget::windowFilled(int track)
{
    State& s = *m_state;
    // Indices into the old window are meaningless now: hover is recomputed on the next
    // move, and the draw lists at once, so no hit test reads a stale index.
    s.hovered = {};
    resolveHeldSlices(track);
    s.listsDirty = true;
    rebuildLists();
    update();
}

void TimelineWidget::resolveHeldSlices(int onlyTrack)
{
    State& s = *m_state;
    if (!s.data || !s.data->windowed())
        return;
    s.selected = s.selectedId >= 0 ? s.data->find(s.selectedId) : SliceRef{};
    s.flows.clear();
    for (const auto& [from, to] : s.flowIds) {
        const SliceRef a = s.data->find(from);
        const SliceRef b = a.valid() ? s.data->find(to) : SliceRef{};
        if (a.valid() && b.valid())
            s.flows.emplace_back(a, b);
    }
    const auto& tracks = s.data->tracks();
    if (onlyTrack < 0 || s.highlightIds.empty())
        s.highlighted.clear();
    if (s.highlightIds.empty())
        return;
    // One pass over the loaded ids of the track that changed (or all): a search can mark
    // many more slices than the windows hold. The id set is built once per highlight.
    if (s.highlightSet.empty())
        s.highlightSet.insert(s.highlightIds.begin(), s.highlightIds.end());
    s.highlighted.resize(tracks.size());
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (onlyTrack >= 0 && static_cast<int>(t) != onlyTrack)
            continue;
        s.highlighted[t].clear();
        const auto& ids = tracks[t].slices.id;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (s.highlightSet.count(ids[i]) == 0)
                continue;
            if (s.highlighted[t].empty())
                s.highlighted[t].assign(ids.size(), 0);
            s.highlighted[t][i] = 1;
        }
    }
}

}  // namespace npu::views
