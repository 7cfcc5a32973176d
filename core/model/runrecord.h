#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace paretoscope {

/// Latency distribution of one metric, in seconds. Missing statistics stay empty.
struct LatencyStats {
    std::optional<double> mean;
    std::optional<double> median;
    std::optional<double> p90;
    std::optional<double> p99;
    std::optional<double> p999;
};

/// Where a record came from.
struct Provenance {
    std::string source; ///< file path, URL, "bundled:NAME" or "session:ID"
    std::string sha256; ///< of the whole source file or response body
    std::string format; ///< the format it was read as (see formatName)
    std::int64_t importedAt = 0; ///< seconds since the epoch
    std::string note; ///< free text, e.g. "InferenceX published ladder"
};

/// One measured point: one configuration at one concurrency (docs/architecture.md section 3). Unknown integers are 0.
struct RunRecord {
    // configuration
    std::string model;
    std::string hardware; ///< lower case key: b300, mi325x, h200 ...
    std::string engine; ///< vllm, sglang, trt, atom, dynamo-trt ...
    std::string engineImage;
    std::string precision; ///< fp4, fp8, bf16, int4 ...
    std::string specDecoding = "none";
    int tp = 0; ///< the decode side's of a disaggregated run (the prefill side has its own below)
    int ep = 0;
    int pp = 0;
    bool dpAttention = false;
    bool disaggregated = false;
    /// The prefill side of a disaggregated run (InferenceX keeps prefill and decode apart: tp, ep, attention data
    /// parallel, workers); an aggregated run's prefill side is its one side (completeConfiguration sets it).
    int prefillTp = 0;
    int prefillEp = 0;
    bool prefillDpAttention = false;
    int prefillWorkers = 0;
    int decodeWorkers = 0;
    int prefillGpus = 0;
    int decodeGpus = 0;
    int gpus = 0; ///< InferenceX's count: tp x pp (x pcp) aggregated, prefill + decode GPUs disaggregated
    int isl = 0; ///< 0: variable (trace replay workloads)
    int osl = 0;
    std::string workload;
    int concurrency = 0;
    std::string runDate;
    std::string runUrl;
    /// The run this point belongs to (runidentity.h): "gh:RUN/ATTEMPT" (an InferenceX workflow run), "session:ID",
    /// "task:..." (a cluster task), or empty: the store gives it the import it came in with.
    std::string run;
    std::int64_t runStarted = 0; ///< when its run started (seconds since the epoch), 0 unknown
    /// The run adds points to the curve it measured rather than replacing it (an InferenceX row's `append_only`):
    /// under --runs latest, where all its points come from one engine image, it chains back to the next older run of
    /// the curve and image (docs/architecture.md section 10.2).
    bool appendOnly = false;
    /// The recipe the point was measured with, where the source gives one (`recipe_fingerprint`): part of a point's
    /// identity, so that two recipes at one configuration and concurrency are two points.
    std::string recipeFingerprint;

    // metrics: throughputs in tokens/s per GPU, latencies in seconds
    std::optional<double> tputPerGpu;
    std::optional<double> outputTputPerGpu;
    std::optional<double> inputTputPerGpu;
    std::optional<double> interactivity; ///< tok/s/user = 1 / median TPOT (s)
    LatencyStats ttft;
    LatencyStats tpot;
    LatencyStats itl;
    LatencyStats e2el;
    std::optional<double> avgPowerW;
    std::optional<std::int64_t> completed;
    std::optional<std::int64_t> failed;
    /// Why the measurement is not trusted, empty when it is: a live level with more than 5% of its requests failed
    /// or any request cut by a timeout. A marked run is drawn hollow and left out of frontiers unless asked for.
    std::string marked;
    /// A live level's validity flags, comma-separated (client-bound, low-concurrency, prefix-cache, prompt-mismatch,
    /// failed, telemetry-gaps: core/live/validity.h), empty when it checks out. Shown, and left out where asked.
    std::string validity;

    Provenance provenance;
};

/// 64-bit hash of the record's configuration and metrics (not its provenance, nor its run: the same point imported
/// from two files is one point): equal content, equal hash. Not the prefill side of a disaggregated run either: a
/// store written before the sides were kept apart keeps its hashes, and a file imported again finds its rows and
/// restores their prefill side (ImportWriter).
std::uint64_t contentHash(const RunRecord& r);

/// Fills what a record leaves to be derived: an aggregated run's prefill side is its one side; a disaggregated run
/// whose prefill side is not known (written before it was kept apart) shows its decode side there.
void completeConfiguration(RunRecord& r);

/// 64-bit hash of the fields that name the record's series (model, isl, osl, workload, hardware, engine, precision,
/// spec decoding): equal series, equal hash.
std::uint64_t seriesHash(const RunRecord& r);

/// Whether two records belong to the same series (the fields seriesHash() covers).
bool sameSeries(const RunRecord& a, const RunRecord& b);

/// The default workload name for a random fixed-length run, e.g. "random 1k/1k".
std::string randomWorkloadName(int isl, int osl);

} // namespace paretoscope
