#pragma once

#include <map>
#include <string>

#include "app/clicommon.h"

namespace paretoscope::cli {

/// The options `replay` accepts (name -> takes a value): a view's, --target, --out, --fps, --size, --hold.
std::map<std::string, bool> replayOptions();
/// `replay`: the as-of replay of a view's run dates as a video (MP4, H.264) or an animated GIF (docs/report.md), each
/// frame the explorer's chart as of one date. Draws through Qt on its offscreen platform: no display needed.
int cmdReplay(const Invocation& in);

} // namespace paretoscope::cli
