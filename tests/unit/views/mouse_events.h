#pragma once
// Mouse input for widget tests, sent as the widget receives it from a window system:
// QTest's mouseMove carries no button state, which drags need.

#include <QApplication>
#include <QMouseEvent>
#include <QPoint>
#include <QWidget>

namespace npu::views::testing {

inline void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons,
                      Qt::KeyboardModifiers mods = {})
{
    QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, buttons, mods);
    QApplication::sendEvent(w, &e);
}

// Press at `from`, move through the midpoint to `to`, release there (left button).
inline void drag(QWidget* w, QPoint from, QPoint to, Qt::KeyboardModifiers mods = {})
{
    sendMouse(w, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, mods);
    sendMouse(w, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton, mods);
    sendMouse(w, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, mods);
    sendMouse(w, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, mods);
}

}  // namespace npu::views::testing
