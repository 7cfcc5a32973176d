#include "core/live/prometheus.h"

#include <charconv>
#include <cmath>

namespace paretoscope {

std::map<std::string, double> parsePrometheusText(std::string_view text)
{
    std::map<std::string, double> out;
    while (!text.empty()) {
        std::size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view {} : text.substr(eol + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        if (line.empty() || line[0] == '#')
            continue;
        std::size_t nameEnd = line.find_first_of("{ ");
        if (nameEnd == std::string_view::npos || nameEnd == 0)
            continue;
        std::string_view name = line.substr(0, nameEnd);
        std::size_t valueStart = nameEnd;
        if (line[nameEnd] == '{') {
            // label values may hold '}' inside quotes
            bool quoted = false;
            std::size_t i = nameEnd + 1;
            for (; i < line.size(); ++i) {
                if (line[i] == '\\' && quoted) {
                    ++i;
                    continue;
                }
                if (line[i] == '"')
                    quoted = !quoted;
                else if (line[i] == '}' && !quoted)
                    break;
            }
            if (i >= line.size())
                continue;
            valueStart = i + 1;
        }
        std::string_view rest = line.substr(valueStart);
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        std::string_view number = rest.substr(0, rest.find(' '));
        double v = 0;
        auto [p, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
        if (ec != std::errc() || p != number.data() + number.size() || !std::isfinite(v))
            continue;
        out[std::string(name)] += v;
    }
    return out;
}

std::map<std::string, double> engineState(const std::map<std::string, double>& s)
{
    std::map<std::string, double> out;
    auto take = [&](const char* key, std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (auto it = s.find(n); it != s.end()) {
                out[key] = it->second;
                return;
            }
    };
    take("running", { "vllm:num_requests_running", "sglang:num_running_reqs" });
    take("waiting", { "vllm:num_requests_waiting", "sglang:num_queue_reqs" });
    take("kv_cache_usage", { "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage" });
    take("prompt_tokens", { "vllm:prompt_tokens_total", "sglang:prompt_tokens_total" });
    take("generation_tokens", { "vllm:generation_tokens_total", "sglang:generation_tokens_total" });
    take("prefix_queries", { "vllm:prefix_cache_queries_total" });
    take("prefix_hits", { "vllm:prefix_cache_hits_total", "sglang:cached_tokens_total" });
    take("preemptions", { "vllm:num_preemptions_total" });
    return out;
}

} // namespace paretoscope
