#include "core/model/layoutlabel.h"

namespace paretoscope {

std::string sideLabel(int tp, int ep, bool dpAttention, int workers)
{
    std::string s = "TP" + (tp > 0 ? std::to_string(tp) : std::string("?"));
    if (ep > 0)
        s += " EP" + std::to_string(ep);
    if (dpAttention)
        s += " DP-attn";
    if (workers > 1)
        s += " x" + std::to_string(workers) + " workers";
    return s;
}

std::string prefillLabel(const RunRecord& r)
{
    if (!r.disaggregated)
        return {};
    return sideLabel(r.prefillTp, r.prefillEp, r.prefillDpAttention, r.prefillWorkers)
        + (r.prefillGpus > 0 ? ", " + std::to_string(r.prefillGpus) + " GPUs" : std::string());
}

std::string layoutLabel(const RunRecord& r)
{
    if (!r.disaggregated)
        return sideLabel(r.tp, r.ep, r.dpAttention, 0) + (r.gpus > 0 ? ", " + std::to_string(r.gpus) + " GPUs" : "");
    return "prefill " + sideLabel(r.prefillTp, r.prefillEp, r.prefillDpAttention, r.prefillWorkers)
        + (r.prefillGpus > 0 ? " (" + std::to_string(r.prefillGpus) + " GPUs)" : "") + " + decode "
        + sideLabel(r.tp, r.ep, r.dpAttention, r.decodeWorkers)
        + (r.decodeGpus > 0 ? " (" + std::to_string(r.decodeGpus) + " GPUs)" : "");
}

} // namespace paretoscope
