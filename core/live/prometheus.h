#pragma once

#include <map>
#include <string>
#include <string_view>

namespace paretoscope {

/// The samples of a Prometheus text exposition, summed over label sets: name -> value. Comments, malformed lines and
/// non-finite values are skipped (a scrape is telemetry: it must never fail a session).
std::map<std::string, double> parsePrometheusText(std::string_view text);

/// The engine's state worth keeping from a scrape, under neutral names, for vLLM (vllm:) and SGLang (sglang:):
/// running, waiting, kv_cache_usage (0 to 1), prompt_tokens, generation_tokens, prefix_queries, prefix_hits,
/// preemptions. Missing ones are absent.
std::map<std::string, double> engineState(const std::map<std::string, double>& samples);

} // namespace paretoscope
