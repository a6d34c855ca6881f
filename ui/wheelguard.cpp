#include "ui/wheelguard.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPointer>
#include <QWidget>

namespace ui {

namespace {

/// Passes a wheel event over an unfocused input on to its parents: an
/// ignored event handled by a filter goes up to the scroll area.
class WheelGuard : public QObject
{
public:
    using QObject::QObject;

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Wheel || static_cast<QWidget *>(watched)->hasFocus())
            return false;
        event->ignore();
        return true;
    }
};

} // namespace

void changeOnWheelOnlyWhenFocused(QWidget *input)
{
    // One filter for the application's inputs, made again should a later
    // application object replace the first (it goes with it).
    static QPointer<WheelGuard> guard;
    if (!guard)
        guard = new WheelGuard(QCoreApplication::instance());
    // Wheel focus would focus the input before the filter sees the event.
    input->setFocusPolicy(Qt::StrongFocus);
    input->installEventFilter(guard);
}

} // namespace ui
