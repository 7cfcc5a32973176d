#pragma once

namespace paretoscope::ui {

/// The nice value runBehindTheGui gives a thread: a third of the CPU share of a thread at 0 where both wait for a
/// core. Milder than 10, so that an import holding the store's write lock still gets on while a live session (whose
/// threads keep 0) waits for that lock to write its level.
constexpr int kBehindTheGuiNice = 5;

/// Gives the calling thread a lower share of the CPU than the GUI thread (kBehindTheGuiNice on Linux; nothing
/// elsewhere), so that on a loaded machine (two cores, a store read, an import and a picture drawn at once) the
/// window's paint is not held up by work that nobody waits on frame by frame. Threads it starts inherit it. For the
/// explorer's background threads: the store worker, the importer, the cluster collector, the pools that draw and
/// compute; not a live session's, whose clients time the server. Nothing on the GUI thread itself (a task that a wait
/// for its future runs there).
void runBehindTheGui();

} // namespace paretoscope::ui
