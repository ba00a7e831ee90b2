#pragma once
// The timeline's keyboard and mouse help, as Perfetto shows it on "?": a panel over the
// timeline listing every shortcut (the same table as docs/timeline.md's Navigation).
// "?" shows or hides it, Esc or a click hides it; it follows the timeline's size.

#include <QLabel>

namespace npu::views {

class ShortcutOverlay : public QLabel {
    Q_OBJECT
public:
    explicit ShortcutOverlay(QWidget* timeline);

    void toggle();
    // Centred over the parent, at most its size.
    void place();

protected:
    void mousePressEvent(QMouseEvent* event) override;
};

// The rows the overlay lists: (keys, what they do).
QList<QPair<QString, QString>> timelineShortcuts();

}  // namespace npu::views
