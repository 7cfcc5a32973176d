#pragma once

#include <string>

#include "core/model/runrecord.h"

namespace paretoscope {

/// One side of a run's layout in words: "TP8 EP8 DP-attn", with "x5 workers" where it has several.
std::string sideLabel(int tp, int ep, bool dpAttention, int workers);

/// A disaggregated run's prefill side with its GPUs ("TP8 EP1 x5 workers, 40 GPUs"); empty for an aggregated run.
std::string prefillLabel(const RunRecord& r);

/// A run's layout: "TP8 EP8 DP-attn, 8 GPUs", or for a disaggregated run "prefill TP8 EP1 x5 workers (40 GPUs) +
/// decode TP32 EP32 (32 GPUs)".
std::string layoutLabel(const RunRecord& r);

} // namespace paretoscope
