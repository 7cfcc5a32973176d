#pragma once

#include <optional>
#include <string>
#include <vector>

namespace paretoscope {

/// Which runs count (docs/architecture.md section 10.2): per curve its latest run as of a date (the InferenceX site's
/// rule since its migrations 011 and 014), per configuration its latest run (the site's earlier rule, migration 007:
/// a denser view), or every run.
enum class RunSelection { Latest, LatestPerConfiguration, All };

/// Which GPUs a per-GPU throughput of a disaggregated run is per: the InferenceX site's basis (total tokens per all
/// GPUs, output tokens per decode GPU, input tokens per prefill GPU), or every GPU of the deployment for each metric.
/// Aggregated runs read the same either way.
enum class TputBasis { Serving, AllGpus };

/// Which TTFT statistic a TTFT limit applies to.
enum class LatencyStat { Median, P99 };

/// Which runs a frontier is drawn from: one model and sequence lengths (or a named workload), and the user's filters.
/// Empty filter lists mean "all"; a filter that allows no value at all is said by matchesNothing.
struct Scope {
    std::string model;
    std::optional<int> isl;
    std::optional<int> osl;
    std::string workload; ///< empty: any workload with these lengths
    std::vector<std::string> hardware;
    std::vector<std::string> engines;
    std::vector<std::string> precisions;
    std::vector<std::string> specDecoding;
    std::string dateFrom; ///< run date range, ISO yyyy-mm-dd, inclusive; empty: open. Runs without a date are
    std::string dateTo; ///< kept only while both ends are open.
    /// Latest: per curve (curveKeyHash: the site's replacement boundary) only the points of its run with the newest
    /// run date on or before asOf (then the latest start, then the highest run), whatever their parallelism: the
    /// InferenceX site's rule; LatestPerConfiguration: the same per line (a configuration without concurrency,
    /// lineKeyHash); All: every run dated on or before asOf.
    RunSelection runs = RunSelection::Latest;
    /// yyyy-mm-dd; empty: no bound (the latest run date in scope). Runs without a date count as dated on the day
    /// their source was imported, here and for the selection.
    std::string asOf;
    /// Whether runs marked as not trusted (RunRecord::marked) count in frontiers, readings and the summary; they are
    /// drawn (hollow) either way.
    bool includeMarked = false;
    /// Leaves out runs with validity flags (RunRecord::validity: a live level that did not check itself out), from
    /// the chart as well as from frontiers.
    bool excludeFlagged = false;
    /// A filter allows no value (every hardware unchecked, say): no run matches, whatever the lists hold. The store
    /// answers such a scope with nothing and a ladder has no hardware.
    bool matchesNothing = false;
    /// Service-level limits (seconds): only runs whose TTFT (the statistic ttftStat) and median TPOT are at or below
    /// them count; a run without the statistic does not meet a limit. Unset: no limit. With a limit the frontier is
    /// the "SLO frontier" of the capacity plan (docs/architecture.md section 12.5).
    std::optional<double> ttftMax;
    std::optional<double> tpotMax;
    LatencyStat ttftStat = LatencyStat::Median;
    /// The basis of the output and input metrics (`--basis serving|all`).
    TputBasis basis = TputBasis::Serving;
    /// Whether a service-level limit is set (TTFT or TPOT).
    bool hasSloLimits() const { return ttftMax.has_value() || tpotMax.has_value(); }
    bool operator==(const Scope&) const = default;
};

/// The group key of a frontier inside a scope (docs/architecture.md section 8).
struct GroupKey {
    std::string hardware;
    std::string engine;
    std::string precision;
    std::string specDecoding;

    auto operator<=>(const GroupKey&) const = default; // NOLINT(modernize-use-nullptr): clang-tidy 14 misreads it
};

/// One stored series: a group key inside one (model, isl, osl, workload).
struct Series {
    long long id = 0;
    std::string model;
    int isl = 0;
    int osl = 0;
    std::string workload;
    GroupKey key;
    long long runs = 0; ///< how many runs it holds, whatever the dates (what a filter that hides it hides)
};

/// A (model, isl, osl, workload) that has runs, with the count; for listing what can be scoped.
struct ScopeSummary {
    std::string model;
    int isl = 0;
    int osl = 0;
    std::string workload;
    long long runs = 0;
    std::vector<std::string> hardware;
};

} // namespace paretoscope
