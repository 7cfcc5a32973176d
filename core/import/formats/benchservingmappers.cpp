// Mappers for the client-side benchmark results of vLLM and SGLang. Their throughputs are per server (all GPUs) and
// their latencies in milliseconds (keys ending _ms), or in seconds in summaries written without the suffix
// (InferenceX's experimental decode-SLO results); the GPU count and the configuration come from the caller.
#include "core/import/formats/benchservingmappers.h"

#include <cmath>
#include <unordered_map>
#include <vector>

#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"

namespace paretoscope {
namespace {

enum class B {
    Date,
    MaxConcurrency,
    Completed,
    Failed,
    TotalInput,
    TotalOutput,
    TotalThroughput,
    OutputThroughput,
    InputThroughput,
    RandomInputLen,
    RandomOutputLen,
    Duration,
    DatasetName,
    Ignored,
};

class BenchServingMapper : public RecordMapper {
public:
    BenchServingMapper(ImportOptions o, bool sglang)
        : m_opt(std::move(o))
        , m_sglang(sglang)
    {
    }

    void begin() override
    {
        m_r = RunRecord {};
        m_total.reset();
        m_output.reset();
        m_input.reset();
        m_totalInputTokens.reset();
        m_totalOutputTokens.reset();
        m_duration.reset();
        m_dataset.clear();
        m_randomIsl = m_randomOsl = 0;
        m_notes.clear();
    }

    const std::vector<std::string>& notes() const override { return m_notes; }

    Status field(std::string_view key, const FieldValue& v) override
    {
        static const std::unordered_map<std::string_view, B> keys {
            { "date", B::Date },
            { "max_concurrency", B::MaxConcurrency },
            { "completed", B::Completed },
            { "failed", B::Failed },
            { "total_input_tokens", B::TotalInput },
            { "total_output_tokens", B::TotalOutput },
            { "total_token_throughput", B::TotalThroughput },
            { "total_throughput", B::TotalThroughput },
            { "output_throughput", B::OutputThroughput },
            { "input_throughput", B::InputThroughput },
            { "random_input_len", B::RandomInputLen },
            { "random_output_len", B::RandomOutputLen },
            { "duration", B::Duration },
            { "dataset_name", B::DatasetName },
        };
        auto it = keys.find(key);
        if (it == keys.end()) {
            // other keys (backend, request_rate, "request_goodput:" ...) are not kept
            auto target = fields::latencyTarget(key);
            return target ? fields::setLatency(m_r, *target, key, v) : ok();
        }
        switch (it->second) {
        case B::Date: {
            auto t = fields::text(key, v);
            if (!t)
                return Error { t.error() };
            auto date = fields::checkedDate(key, t->value_or(std::string()));
            if (!date)
                return Error { date.error() };
            m_r.runDate = std::move(*date);
            return ok();
        }
        case B::MaxConcurrency:
            return countInto(key, v, [&](long long n) { m_r.concurrency = static_cast<int>(n); });
        case B::Completed:
            return countInto(key, v, [&](long long n) { m_r.completed = n; });
        case B::Failed:
            return countInto(key, v, [&](long long n) { m_r.failed = n; });
        case B::TotalInput:
            return countInto(key, v, [&](long long n) { m_totalInputTokens = n; });
        case B::TotalOutput:
            return countInto(key, v, [&](long long n) { m_totalOutputTokens = n; });
        case B::RandomInputLen:
            return countInto(key, v, [&](long long n) { m_randomIsl = static_cast<int>(n); });
        case B::RandomOutputLen:
            return countInto(key, v, [&](long long n) { m_randomOsl = static_cast<int>(n); });
        case B::TotalThroughput:
            return fields::assignPositive(key, v, m_total);
        case B::OutputThroughput:
            return fields::assignPositive(key, v, m_output);
        case B::InputThroughput:
            return fields::assignPositive(key, v, m_input);
        case B::Duration:
            return fields::assignPositive(key, v, m_duration);
        case B::DatasetName: {
            auto t = fields::text(key, v);
            if (!t)
                return Error { t.error() };
            m_dataset = *t ? asciiLower(**t) : std::string();
            return ok();
        }
        case B::Ignored:
            return ok();
        }
        return ok();
    }

    Result<RunRecord> finish() override
    {
        if (!m_r.tpot.median)
            return Error { "field 'median_tpot_ms' (or 'median_tpot' in seconds): missing (required)" };
        // summaries without the throughputs: as vLLM computes them, tokens over the benchmark's duration
        if (!m_output && m_totalOutputTokens && m_duration)
            m_output = double(*m_totalOutputTokens) / *m_duration;
        if (!m_output)
            return Error { "field 'output_throughput': missing (required; or total_output_tokens with duration)" };
        if (!m_total && m_input)
            m_total = *m_input + *m_output; // older SGLang: total = input + output
        if (!m_total && m_totalInputTokens && m_totalOutputTokens && m_duration)
            m_total = double(*m_totalInputTokens + *m_totalOutputTokens) / *m_duration;
        if (!m_total)
            return Error { std::string("field '") + (m_sglang ? "total_throughput" : "total_token_throughput")
                + "': missing (required; or total_input_tokens and total_output_tokens with duration)" };
        if (*m_output > *m_total)
            return Error { "field 'output_throughput': larger than the total throughput" };

        const bool random = m_dataset.empty() || m_dataset.starts_with("random");
        m_r.isl = m_opt.isl > 0 ? m_opt.isl : random ? m_randomIsl : 0;
        m_r.osl = m_opt.osl > 0 ? m_opt.osl : random ? m_randomOsl : 0;
        // without lengths from the caller or a random dataset's nominal ones, the mean per completed request (exact
        // for fixed-length random runs)
        const bool measuredLengths = m_r.isl == 0 || m_r.osl == 0;
        if (m_r.completed && *m_r.completed > 0) {
            const double done = double(*m_r.completed);
            if (m_r.isl == 0 && m_totalInputTokens)
                m_r.isl = static_cast<int>(std::lround(double(*m_totalInputTokens) / done));
            if (m_r.osl == 0 && m_totalOutputTokens)
                m_r.osl = static_cast<int>(std::lround(double(*m_totalOutputTokens) / done));
        }
        if (m_r.isl == 0 || m_r.osl == 0)
            return Error { "input/output lengths unknown: give --isl and --osl" };
        if (!m_opt.workload.empty())
            m_r.workload = m_opt.workload;
        else if (random)
            m_r.workload = randomWorkloadName(m_r.isl, m_r.osl);
        else
            m_r.workload = m_dataset; // not a fixed-length workload: its name, never a "random" scope
        if (!random && measuredLengths)
            m_notes.push_back("dataset '" + m_dataset
                + "' is not random: isl and osl are the measured mean tokens per request"
                + (m_randomIsl || m_randomOsl ? " (random_input_len and random_output_len are ignored)" : ""));

        m_r.model = m_opt.model;
        m_r.hardware = asciiLower(m_opt.hardware);
        m_r.engine = asciiLower(m_opt.engine);
        m_r.precision = asciiLower(m_opt.precision);
        m_r.specDecoding = m_opt.specDecoding.empty() ? "none" : asciiLower(m_opt.specDecoding);
        m_r.tp = m_opt.tp;

        const double total = *m_total, output = *m_output, input = total - output;
        if (m_opt.prefillGpus > 0 && m_opt.decodeGpus > 0) {
            // disaggregated: input tokens are the prefill GPUs' work, output tokens the decode GPUs'
            m_r.disaggregated = true;
            m_r.prefillGpus = m_opt.prefillGpus;
            m_r.decodeGpus = m_opt.decodeGpus;
            m_r.gpus = m_opt.prefillGpus + m_opt.decodeGpus;
            m_r.outputTputPerGpu = output / m_r.decodeGpus;
            if (input > 0)
                m_r.inputTputPerGpu = input / m_r.prefillGpus;
        } else {
            m_r.gpus = m_opt.gpus;
            m_r.outputTputPerGpu = output / m_r.gpus;
            if (input > 0)
                m_r.inputTputPerGpu = input / m_r.gpus;
        }
        m_r.tputPerGpu = total / m_r.gpus;
        m_r.interactivity = 1.0 / *m_r.tpot.median;
        return std::move(m_r);
    }

private:
    template <typename F> Status countInto(std::string_view key, const FieldValue& v, F set)
    {
        auto n = fields::count(key, v);
        if (!n)
            return Error { n.error() };
        if (*n)
            set(**n);
        return ok();
    }

    ImportOptions m_opt;
    bool m_sglang;
    RunRecord m_r;
    std::optional<double> m_total, m_output, m_input, m_duration;
    std::optional<long long> m_totalInputTokens, m_totalOutputTokens;
    std::string m_dataset; ///< lower case; empty when the file does not name it (vLLM's results)
    int m_randomIsl = 0, m_randomOsl = 0;
    std::vector<std::string> m_notes;
};

} // namespace

std::unique_ptr<RecordMapper> makeVllmBenchMapper(const ImportOptions& options)
{
    return std::make_unique<BenchServingMapper>(options, false);
}

std::unique_ptr<RecordMapper> makeSglangBenchMapper(const ImportOptions& options)
{
    return std::make_unique<BenchServingMapper>(options, true);
}

std::string missingCallerFields(const ImportOptions& o)
{
    std::string missing;
    auto need = [&](bool absent, const char* name) {
        if (absent)
            missing += (missing.empty() ? "" : ", ") + std::string(name);
    };
    need(o.hardware.empty(), "hardware");
    bool split = o.prefillGpus > 0 || o.decodeGpus > 0;
    need(!split && o.gpus <= 0, "gpus (or prefill-gpus and decode-gpus)");
    need(split && o.prefillGpus <= 0, "prefill-gpus");
    need(split && o.decodeGpus <= 0, "decode-gpus");
    need(o.engine.empty(), "engine");
    need(o.precision.empty(), "precision");
    need(o.model.empty(), "model");
    return missing;
}

} // namespace paretoscope
