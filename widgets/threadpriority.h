#pragma once

namespace paretoscope::ui {

/// Gives the calling thread a lower share of the CPU than the GUI thread (nice 10 on Linux; nothing elsewhere), so
/// that on a loaded machine (two cores, a store read, an import and a picture drawn at once) the window's paint is not
/// held up by work that nobody waits on frame by frame. Threads it starts inherit it. For the explorer's background
/// threads: the store worker, the importer, the cluster collector, the pools that draw and compute; not a live
/// session's, whose clients time the server.
void runBehindTheGui();

} // namespace paretoscope::ui
