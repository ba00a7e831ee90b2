#pragma once
// The operator timeline: tracks grouped by device, nested slices by depth, counter
// tracks as area charts, folded level of detail, Perfetto-style navigation.
//
// Times in the API are "view time": the database's nanoseconds minus timeOffset(), so
// two runs with different offsets can share one axis (the compare view aligns them at
// step start). Keyboard: W/S zoom, A/D pan, F fit, arrows scroll. Mouse: wheel zooms at
// the cursor (Shift+wheel, or wheel over the track-name gutter, scrolls vertically),
// left-drag pans, Shift+left-drag or a drag on the ruler selects a time range, a click
// selects the slice under the cursor (in a folded block, the one nearest the cursor),
// a double-click on a folded block zooms to it.

#include "views/common/large_run.h"
#include "views/timeline/timeline_palette.h"
#include "views/timeline/track_arrangement.h"

#include <QPair>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class TimelineData;
class TimeViewport;
struct SliceRef;
struct TimelineFlag;

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);
    ~TimelineWidget() override;

    // Loads the tracks (slices and counters), builds the layout and fits the full range.
    // A null database clears the widget. Databases up to kSyncLoadSlices slices load
    // before this returns; larger ones load track by track on a worker thread (its own
    // connection), drawing each track as it arrives: loadProgress, then loadingFinished.
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    static constexpr qint64 kSyncLoadSlices = 200'000;
    // Past this many slices (and with the schema-6 track summaries) slice tracks are
    // windowed (up to it, loading whole costs at most ~50 MB): only the slices overlapping the view (plus a view's width each side) are
    // read, by range query, at most kWindowBudgetSlices over all tracks; a view holding
    // more is painted from the summaries. Memory then follows the view, not the file.
    static constexpr qint64 kWindowedSlices = kLargeRunSlices;
    static constexpr qint64 kWindowBudgetSlices = 600'000;
    // Other thresholds (tests): applies from the next setDatabase().
    void setWindowing(qint64 fromSlices, qint64 budgetSlices);
    bool isLoading() const;         // the background load of whole tracks (loadingFinished)
    bool isLoadingWindows() const;  // windowed data: the view's windows are being read (windowsLoaded)
    std::shared_ptr<const profiler::ProfileDb> database() const;
    // The track-name gutter: fitted to the device names on setDatabase (a cluster's
    // "node 1 · rank 12 (npu)" does not fit the default), between kMinGutter and
    // kMaxFittedGutter, until the user drags its right edge; a dragged width is kept.
    int gutterWidth() const;
    void setGutterWidth(int px);
    static constexpr int kMinGutter = 120;
    static constexpr int kMaxFittedGutter = 360;

    void setViewRange(qint64 t0_ns, qint64 t1_ns);
    QPair<qint64, qint64> viewRange() const;
    QPair<qint64, qint64> fullRange() const;  // the trace's extent, in view time
    void fitAll();

    // Shifts drawing: view time = database time - offset. With an offset set the ruler
    // counts from view time 0 (the aligned point) instead of the trace start.
    void setTimeOffset(qint64 ns);
    qint64 timeOffset() const;
    // Navigation stays within the trace (plus 10 %) unioned with [t0, t1] in view time:
    // the compare view passes both runs' union so the shared axis can reach either end.
    void setNavigationBounds(qint64 t0, qint64 t1);

    int itemCount() const;      // slices loaded (all tracks)
    int trackCount() const;     // slice and counter tracks loaded
    int drawnItemCount() const; // rectangles drawn by the last frame (slices + folded blocks)
    int foldedBlockCount() const;

    void selectSlice(qint64 id);  // highlights, scrolls it into view; -1 clears
    qint64 selectedSlice() const;
    void centerOnSlice(qint64 id);  // keeps the zoom, centres the slice horizontally and vertically

    // The drag-selected range in view time; (0, 0) when none.
    QPair<qint64, qint64> selectedRange() const;
    void setSelectedRange(qint64 t0, qint64 t1);  // over all tracks
    // An area: [t0, t1) over the tracks with these database ids (all when empty), as a
    // Shift+drag across track rows makes it (Perfetto's area selection).
    void setSelectedArea(qint64 t0, qint64 t1, const std::vector<qint64>& trackIds);
    // The database ids of the area's tracks; empty when the range covers every track.
    std::vector<qint64> selectedAreaTracks() const;
    void clearSelectedRange();

    // Track management (pin, order, hide, filter); see TrackArrangement.
    void setTrackArrangement(const TrackArrangement& arrangement);
    const TrackArrangement& trackArrangement() const;
    void setTrackPinned(qint64 trackId, bool pinned);
    // What slice colours show (the context menu's "Colour by"); remembered across sessions.
    void setColouring(SliceColouring colouring);
    SliceColouring colouring() const;
    void setTrackHidden(qint64 trackId, bool hidden);
    void moveTrackBefore(qint64 trackId, qint64 beforeTrackId);  // -1: to the end of its group
    void setTrackFilter(const QString& text);
    // Database ids of the tracks as laid out now, top to bottom (pinned first).
    std::vector<qint64> visibleTrackIds() const;
    // Every track in the arranged order, hidden and filtered-out ones included.
    std::vector<qint64> arrangedTrackIds() const;

    // Flags on the time axis, in database time (what is saved per database), oldest first.
    const std::vector<TimelineFlag>& flags() const;
    void setFlags(const std::vector<TimelineFlag>& flags);
    int addFlag(qint64 viewTime, const QString& note = {});  // returns its index
    void removeFlag(int index);
    void setFlagNote(int index, const QString& note);
    void goToFlag(int index);  // centres the view on it, keeping the zoom

    // Fits the selected range, else the selected slice, else everything (the F key).
    void fitSelection();

    void setGroupCollapsed(qint64 deviceId, bool collapsed);
    bool isGroupCollapsed(qint64 deviceId) const;
    // A node of a cluster run on several nodes: folding it hides all of its devices.
    void setNodeCollapsed(int node, bool collapsed);
    bool isNodeCollapsed(int node) const;
    // Every node folded (but `except`) or unfolded: the gutter's context menu.
    void setAllNodesCollapsed(bool collapsed, int except = -1);

    // Search matches are outlined; the current one is also selected by the caller.
    void setHighlightedSlices(const QList<qint64>& ids);
    void setHighlightedMatches(const std::vector<SliceRef>& refs);  // no id lookups: for big match sets

    const TimelineData* data() const;

signals:
    void sliceSelected(qint64 id);
    void rangeSelected(qint64 t0, qint64 t1);
    void viewRangeChanged(qint64 t0, qint64 t1);
    void sliceHovered(qint64 id);  // -1 when the cursor leaves all slices
    void loadProgress(int tracksLoaded, int tracksTotal);
    void loadingFinished();
    void windowsLoaded();  // windowed data: what the view needs has arrived
    void trackArrangementChanged();
    void flagsChanged();
    void flagAdded(int index);  // by the user (M, the context menu)
    // "Show in Operators" on a slice's context menu.
    void sliceTableRowRequested(qint64 id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    int plotWidth() const;
    int fittedGutterWidth() const;
    bool onGutterEdge(QPoint pos) const;
    int trackAreaHeight() const;
    void relayout();
    // After the rows change (a fold, the arrangement, a new database): layout, draw lists
    // (windowed data: a folded track's windows go, an unfolded one's load), repaint.
    void relayoutAndRedraw();
    void applyBounds();
    void startLoading();
    void cancelLoading();
    void requestWindows();            // windowed data: loads what the view needs
    void windowFilled(int track);     // a window arrived: re-resolve what is held by id
    void resolveHeldSlices(int onlyTrack = -1);  // highlights of that track only (-1: all)
    void rebuildLists();
    void applyViewport(const std::function<void(TimeViewport&)>& change);
    void setSelection(int track, quint32 index, bool emitSignal);
    void selectById(std::int64_t id, SliceRef ref, bool emitSignal);  // ref may be unresolved (windowed)
    bool selectOutsideWindows(qint64 id, bool select);
    void scrollToTrack(int track);
    QString tooltipAt(const QPoint& pos) const;
    struct PointInfo;
    PointInfo pointInfo(const QPoint& pos) const;
    // In a folded block: the slice of that depth under (or nearest to) the cursor time.
    quint32 sliceInFold(int track, int depth, qint64 t) const;
    void arrangementChanged();  // relayout, repaint, signal
    std::vector<int> tracksBetweenRows(int rowA, int rowB) const;
    void updateTrackDrop(const QPoint& pos);
    int flagNear(int plotX) const;  // index of a flag within a few pixels, or -1

    struct State;
    std::unique_ptr<State> m_state;
};

}  // namespace npu::views
