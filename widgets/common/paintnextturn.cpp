#include "widgets/common/paintnextturn.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace paretoscope::ui {

void paintNextTurn(QWidget* held)
{
    if (!held || held->testAttribute(Qt::WA_ForceUpdatesDisabled))
        return;
    held->setUpdatesEnabled(false);
    releaseNextTurn(held);
}

void releaseNextTurn(QWidget* held)
{
    if (!held)
        return;
    QTimer::singleShot(1, Qt::PreciseTimer, held, [held = QPointer<QWidget>(held)] {
        if (held)
            held->setUpdatesEnabled(true);
    });
}

} // namespace paretoscope::ui
