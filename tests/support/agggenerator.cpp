#include "agggenerator.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace paretoscope::testsupport {

namespace {

// "date": "2026-MM-DD", , the k-th day from 2026-01-01 (k below 365)
std::string dateField(std::uint64_t k)
{
    static const int lengths[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int month = 0;
    while (month < 11 && k >= static_cast<std::uint64_t>(lengths[month]))
        k -= static_cast<std::uint64_t>(lengths[month++]);
    char buf[48];
    std::snprintf(buf, sizeof buf, "\"date\": \"2026-%02d-%02d\", ", month + 1, static_cast<int>(k) + 1);
    return buf;
}

} // namespace

std::uint64_t writeAggArray(const std::string& path, std::uint64_t count, std::uint32_t seed, std::uint32_t dateCount)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return 0;
    static const char* hw[] = { "b300", "mi325x", "h200", "b200", "mi355x", "gb200", "h100", "mi300x" };
    static const char* fw[] = { "vllm", "sglang", "trt" };
    static const char* prec[] = { "fp4", "fp8" };
    static const char* spec[] = { "none", "mtp" };
    static const int isl[] = { 1024, 8192, 1024 };
    static const int osl[] = { 1024, 1024, 8192 };
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> jitter(0.9, 1.1);
    std::uint64_t bytes = 0;
    bytes += static_cast<std::uint64_t>(std::fprintf(f, "[\n"));
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* h = hw[i % 8];
        const char* e = fw[(i / 8) % 3];
        const char* p = prec[(i / 24) % 2];
        const char* s = spec[(i / 48) % 2];
        int shape = static_cast<int>((i / 96) % 3);
        int tp = 1 << ((i / 288) % 4);
        int conc = 1 << ((i / 1152) % 10);
        double tpot = 0.004 * (1 + std::log2(double(conc))) * jitter(rng); // seconds
        double intvty = 1.0 / tpot;
        double tput = 400.0 * conc / tp * jitter(rng) * (1.0 + double(i % 7) / 10.0);
        double ttft = 0.05 * conc * jitter(rng);
        double e2el = ttft + tpot * osl[shape];
        bytes += static_cast<std::uint64_t>(std::fprintf(f,
            "%s{%s\"hw\": \"%s\", \"conc\": %d, \"image\": \"registry/%s:v0.%llu\", \"model\": \"synthetic/model-%d\", "
            "\"infmax_model_prefix\": \"syn\", \"framework\": \"%s\", \"precision\": \"%s\", \"spec_decoding\": "
            "\"%s\", \"disagg\": false, \"isl\": %d, \"osl\": %d, \"is_multinode\": false, \"tp\": %d, \"ep\": 1, "
            "\"dp_attention\": \"false\", \"tput_per_gpu\": %.15g, \"output_tput_per_gpu\": %.15g, "
            "\"input_tput_per_gpu\": %.15g, \"mean_ttft\": %.15g, \"median_ttft\": %.15g, \"std_ttft\": %.15g, "
            "\"p90_ttft\": %.15g, \"p99_ttft\": %.15g, \"p99.9_ttft\": %.15g, \"mean_tpot\": %.15g, \"mean_intvty\": "
            "%.15g, \"median_tpot\": %.15g, \"median_intvty\": %.15g, \"std_tpot\": %.15g, \"std_intvty\": %.15g, "
            "\"p90_tpot\": %.15g, \"p90_intvty\": %.15g, \"p99_tpot\": %.15g, \"p99_intvty\": %.15g, \"p99.9_tpot\": "
            "%.15g, \"p99.9_intvty\": %.15g, \"mean_itl\": %.15g, \"median_itl\": %.15g, \"std_itl\": %.15g, "
            "\"p90_itl\": %.15g, \"p99_itl\": %.15g, \"p99.9_itl\": %.15g, \"mean_e2el\": %.15g, \"median_e2el\": "
            "%.15g, \"std_e2el\": %.15g, \"p90_e2el\": %.15g, \"p99_e2el\": %.15g, \"p99.9_e2el\": %.15g}",
            i ? ",\n" : "", dateCount ? dateField((i / 11520) % dateCount).c_str() : "", h, conc, e,
            static_cast<unsigned long long>(i), static_cast<int>(i % 3), e, p, s, isl[shape], osl[shape], tp, tput,
            tput / 2, tput / 2, ttft * 1.1, ttft, ttft / 5, ttft * 1.5, ttft * 2, ttft * 2.2, tpot * 1.01,
            intvty * 0.99, tpot, intvty, tpot / 20, 1.0 / (tpot / 20), tpot * 1.05, intvty / 1.05, tpot * 1.1,
            intvty / 1.1, tpot * 1.12, intvty / 1.12, tpot * 1.3, tpot * 1.2, tpot / 3, tpot * 2, tpot * 4, tpot * 6,
            e2el * 1.01, e2el, e2el / 10, e2el * 1.05, e2el * 1.1, e2el * 1.12));
    }
    bytes += static_cast<std::uint64_t>(std::fprintf(f, "\n]\n"));
    bool ok = std::fclose(f) == 0;
    return ok ? bytes : 0;
}

std::vector<EvaluationRecord> syntheticEvaluations(
    const std::string& model, const std::vector<GroupKey>& groups, std::uint64_t count)
{
    std::vector<EvaluationRecord> records;
    if (groups.empty())
        return records;
    records.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const GroupKey& g = groups[i % groups.size()];
        EvaluationRecord r;
        r.model = model;
        r.hardware = g.hardware;
        r.engine = g.engine;
        r.precision = g.precision;
        r.specDecoding = g.specDecoding;
        r.tp = 1 << (i / groups.size() % 4);
        r.gpus = r.tp;
        r.concurrency = 32 << (i % 3);
        r.task = "gsm8k";
        r.emStrict = 0.90 + 0.0001 * double(i % 700);
        r.emStrictSe = 0.006;
        r.questions = 1319;
        char date[16];
        std::snprintf(date, sizeof date, "2026-%02d-%02d", int(1 + i / 7 % 12), int(1 + i % 28));
        r.date = date;
        r.runUrl = "https://github.com/x/y/actions/runs/" + std::to_string(i);
        records.push_back(std::move(r));
    }
    return records;
}

} // namespace paretoscope::testsupport
