#include "widgets/common/wheelguard.h"

#include <QApplication>
#include <QComboBox>
#include <QWheelEvent>

namespace paretoscope::ui {

WheelGuard::WheelGuard(QObject* parent)
    : QObject(parent)
{
}

void WheelGuard::guardCombos(QWidget* root)
{
    auto* guard = root->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly);
    if (!guard)
        guard = new WheelGuard(root);
    for (QComboBox* c : root->findChildren<QComboBox*>()) {
        c->setFocusPolicy(Qt::StrongFocus); // not Qt::WheelFocus: a wheel passing by does not focus it
        c->removeEventFilter(guard);
        c->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel)
        return false;
    auto* combo = qobject_cast<QComboBox*>(watched);
    if (!combo || combo->hasFocus())
        return false;
    // not for this combo: to the widgets around it, innermost first, until one takes it (a wheel that is sent, not
    // spontaneous, is not passed up by Qt itself)
    auto* wheel = static_cast<QWheelEvent*>(event);
    for (QWidget* w = combo->parentWidget(); w; w = w->parentWidget()) {
        QWheelEvent passed(w->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(), wheel->pixelDelta(),
            wheel->angleDelta(), wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
            wheel->source());
        passed.ignore();
        QApplication::sendEvent(w, &passed);
        if (passed.isAccepted() || w->isWindow())
            break;
    }
    return true;
}

} // namespace paretoscope::ui
