#include "core/import/formats/formatdetect.h"

#include <algorithm>

namespace paretoscope {
namespace {
bool has(const std::vector<std::string>& keys, std::string_view k)
{
    return std::find(keys.begin(), keys.end(), k) != keys.end();
}
} // namespace

std::optional<Format> detectJsonFormat(const std::vector<std::string>& keys)
{
    // Paretoscope's own records: an evaluation has a task, a run never does
    if (has(keys, "schema"))
        return has(keys, "task") ? Format::ParetoscopeEvaluationsJson : Format::ParetoscopeJson;
    // the API's evaluation rows carry a benchmark row's configuration and metrics too, and a task
    if (has(keys, "hardware") && has(keys, "metrics") && has(keys, "task"))
        return Format::InferenceXEvaluations;
    if (has(keys, "hardware") && has(keys, "metrics"))
        return Format::InferenceXApi;
    if ((has(keys, "hw") && (has(keys, "tput_per_gpu") || has(keys, "conc")))
        || (has(keys, "tput_per_gpu") && has(keys, "conc") && has(keys, "framework")))
        return Format::InferenceXAgg;
    // SGLang names its end-to-end latency e2e_latency and records its dataset; vLLM writes e2el and model_id
    if (has(keys, "median_e2e_latency_ms") || has(keys, "dataset_name") || has(keys, "random_input_len"))
        return Format::SglangBench;
    // vLLM's summary in milliseconds, or the same summary in seconds without the _ms suffix (InferenceX's
    // experimental decode-SLO results); the mapper reads the unit of each key from its name
    if (has(keys, "total_token_throughput") || has(keys, "median_e2el_ms")
        || (has(keys, "model_id")
            && (has(keys, "median_tpot_ms") || has(keys, "median_tpot") || has(keys, "median_ttft")
                || has(keys, "median_e2el"))))
        return Format::VllmBench;
    return std::nullopt;
}

bool isParetoscopeCsvHeader(const std::vector<std::string>& header)
{
    bool tput = has(header, "tput_per_gpu_tok_s") || has(header, "tput_per_gpu");
    return tput && has(header, "hardware") && has(header, "model");
}

} // namespace paretoscope
