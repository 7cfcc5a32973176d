#pragma once

#include <QObject>

class QWidget;

namespace paretoscope::ui {

/// Combo boxes that a mouse wheel scrolling their panel passes by: a combo box takes the wheel only while it has the
/// focus (clicked or tabbed into); otherwise the wheel goes to the panel around it, which scrolls.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Guards every combo box under `root` now (they take the focus on a click or Tab, not on the wheel).
    static void guardCombos(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent);
};

} // namespace paretoscope::ui
