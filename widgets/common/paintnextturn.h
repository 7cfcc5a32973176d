#pragma once

class QWidget;

namespace paretoscope::ui {

/// Holds `held`'s paint for a turn of the event loop: a page that comes to the front is painted in two turns, the
/// rest of it in the pass that runs the window's update request, `held` a 1 ms timer later (a zero one is a posted
/// event, run in that same pass), so that the two do not stand as one turn (docs/architecture.md, section 6).
/// Nothing where `held`'s updates were turned off on it already (by its owner, or by a hold not yet ended); a
/// parent's being off (a stacked layout's, while it changes its page) does not count.
void paintNextTurn(QWidget* held);

/// Gives `held` (its updates turned off by its owner) its paint back a 1 ms timer later, in a pass of the event loop
/// after the one that calls this.
void releaseNextTurn(QWidget* held);

} // namespace paretoscope::ui
