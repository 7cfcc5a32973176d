#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/hardwarepower.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/analysis/tco.h"
#include "core/model/result.h"
#include "core/model/scope.h"

namespace paretoscope {

class RunStore;

/// The unit a demand is given in (docs/architecture.md section 12.1).
enum class DemandUnit {
    TokPerS, ///< total tokens (input + output) per second
    OutputTokPerS, ///< output tokens per second (read on the output-throughput frontier)
    TokPerDay, ///< total tokens per day
    ReqPerS, ///< requests per second, each isl + osl tokens (needs fixed lengths)
    Users, ///< concurrent users, each at the target interactivity (output tokens)
};
/// "tok/s", "output-tok/s", "tok/day", "req/s", "users"
std::string_view demandUnitName(DemandUnit u);
std::optional<DemandUnit> parseDemandUnit(std::string_view name);
/// The frontier a unit is read on: output tokens for output-tok/s and users, total tokens otherwise.
TputMetric demandMetric(DemandUnit u);

/// A capacity-plan question: serve `demand` (in `unit`) at `target` tok/s/user within the scope's SLO limits
/// (Scope::ttftMax, tpotMax), with headroom, priced by a tier, a custom $/GPU/hr or a TCO model.
struct PlanRequest {
    Scope scope; ///< its hardware list, if any, picks the hardware planned; the frontiers come from PlanFrontiers
    double demand = 0;
    DemandUnit unit = DemandUnit::TokPerS;
    double target = 50; ///< tok/s/user
    double headroom = 0.25; ///< a fraction: 0.25 plans for 125% of the demand
    std::map<std::string, int> gpusPerNode; ///< per normalised hardware key, over resources/hardware_power.json
    PriceChoice price; ///< used unless tco is set
    std::optional<TcoModel> tco; ///< when set: each hardware's effective $/GPU/hr from its entry
    bool hideSparse = false; ///< readings across gaps wider than kSparseGap do not count (readLadder)
    /// The target exactly, not as a floor: a hardware whose qualifying points are all faster is not sized
    /// (BelowRange), as before the floor.
    bool exactTarget = false;
};

/// A frontier knot's deployment configuration (the run it was measured by).
struct PlanConfig {
    long long runId = 0;
    double interactivity = 0; ///< tok/s/user
    double tputPerGpu = 0; ///< tok/s/GPU of the frontier's metric
    int tp = 0, ep = 0;
    bool dpAttention = false;
    bool disaggregated = false;
    int prefillGpus = 0, decodeGpus = 0;
    int gpus = 0; ///< as recorded; 0 unknown
    int concurrency = 0;
    std::optional<double> avgPowerW; ///< measured average GPU power, where the run carries it
    /// GPUs of one replica: prefill + decode when disaggregated, else gpus (tp x pp where gpus is not recorded);
    /// 0 when unknown.
    int replicaGpus() const;
};

/// The share of a configuration's GPUs its tok/s/GPU counts: all of them, except for output tokens on a disaggregated
/// configuration, where InferenceX counts decode GPUs only (decode / (prefill + decode)).
double sizedShare(const PlanConfig& c, TputMetric metric);

/// A point of one configuration's curve: where it was measured, and whether it meets the scope's SLO limits.
struct ConfigKnot {
    double x = 0; ///< tok/s/user
    double y = 0; ///< tok/s/GPU of the curve's metric (the site's basis)
    long long runId = 0;
    int concurrency = 0;
    bool meetsLimits = true;
    std::optional<double> avgPowerW;
};

/// One configuration's own curve (docs/architecture.md section 10): the frontier of its selected points alone (its
/// concurrencies), limits aside, read as a frontier is (monotone cubic between adjacent knots, never extrapolated).
struct ConfigCurve {
    GroupKey group;
    PlanConfig config; ///< the configuration; its point fields are its first knot's
    std::vector<ConfigKnot> knots; ///< x increasing, y decreasing
    MonotoneCurve curve;
};

/// What a plan needs from the store for one scope, loaded once: the frontiers with the scope's SLO limits (on total
/// and on output tokens), the hardware seen without the limits, and the configuration of every knot. Computing a
/// plan from it (computePlan) never touches the store.
struct PlanFrontiers {
    Scope scope;
    std::vector<GroupFrontier> total, output; ///< ordered by group key, as FrontierCache gives them
    std::vector<std::string> hardwareWithoutLimits; ///< hardware with a frontier in the scope before the limits
    std::map<long long, PlanConfig> configs; ///< by run id: every knot of total and output
    /// Each configuration's own curve, on total and on output tokens: what the plan sizes on. In group order (by
    /// hardware first).
    std::vector<ConfigCurve> totalConfigs, outputConfigs;
    const std::vector<ConfigCurve>& configCurves(TputMetric m) const;
    std::optional<std::pair<int, int>> lengths; ///< (isl, osl) when every series in scope has the same fixed ones
    std::map<std::string, double> measuredGpuW; ///< per hardware: mean avg_power_w of its knots' runs, where any
    /// Hardware whose every group an accuracy requirement left out (requireAccuracy), sorted; the plan says so.
    std::vector<std::string> accuracyExcluded;
    const std::vector<GroupFrontier>& frontiers(TputMetric m) const;
    /// No run in scope at all, limits aside: the empty-scope message applies.
    bool empty() const { return hardwareWithoutLimits.empty(); }
};

/// Reads the scope's frontiers (only runs meeting Scope::ttftMax / tpotMax count; a run without the statistic does
/// not meet a limit) and their knots' configurations. Check store.readStatus() after it.
PlanFrontiers loadPlanFrontiers(RunStore& store, const Scope& scope);

/// A hardware's plan status. Ok: some configuration delivers the target (measured there or between two of its
/// concurrencies); FasterThanTarget: every qualifying point is faster than the target, and the plan sizes on the best
/// of them; SloNotMet: no run of it meets the SLO limits; AccuracyNotMet: none of its groups meets the accuracy
/// requirement; the rest say why no configuration qualifies (as the ladder's statuses: BelowRange only with an exact
/// target).
enum class PlanStatus {
    Ok,
    BelowRange,
    AboveRange,
    OutOfRange,
    NoData,
    Sparse,
    SloNotMet,
    FasterThanTarget,
    AccuracyNotMet
};
/// "ok", "below_range", "above_range", "out_of_range", "no_data", "sparse", "slo_not_met", "faster_than_target",
/// "accuracy_not_met"
std::string_view planStatusName(PlanStatus s);
/// For a reader: "below the measured range", "no run meets the SLO limits" ...
std::string_view planStatusWords(PlanStatus s);

/// How the sized operating point was read: measured (a point of the configuration) or interpolated between two
/// adjacent concurrencies of the one configuration.
enum class PlanReading { Measured, Interpolated };
/// "measured", "interpolated"
std::string_view planReadingName(PlanReading r);

/// One hardware's plan at the target. Sizing fields are set only when it is sized (sized()); cost fields only when a
/// price is known; power fields only when resources/hardware_power.json knows the hardware.
struct HardwarePlan {
    std::string hardware;
    PlanStatus status = PlanStatus::NoData;
    /// The deployable reading R (tok/s/GPU of the unit's metric, the site's basis): the best operating point of one
    /// configuration at or above the target (docs/architecture.md section 10).
    std::optional<double> tputPerGpu;
    /// R spread over all of a replica's GPUs: R, except for output tokens on a disaggregated configuration, where
    /// InferenceX counts decode GPUs only: R x decode / (prefill + decode). Sizing, energy and list cost use it.
    std::optional<double> tputPerSizedGpu;
    std::optional<GroupKey> group; ///< engine, precision, spec decoding of the reading
    /// The accuracy of the group sized on, its evaluated configuration closest to the one sized (attachAccuracy in
    /// scopeaccuracy.h; docs/evaluations.md); accuracyTask empty where it was not asked (no evaluations).
    std::optional<GroupAccuracy> accuracy;
    std::string accuracyTask;
    PlanReading reading = PlanReading::Measured;
    bool sparse = false; ///< interpolated between two concurrencies more than kSparseGap apart in interactivity
    double deliveredInteractivity = 0; ///< tok/s/user of the operating point: the target, or more (faster)
    /// The configuration sized: measured, its point; interpolated, its point just faster than the target (`lower`
    /// is the one just slower), and `concurrency` the concurrency to run it at, about (log-log between the two).
    std::optional<PlanConfig> sizing;
    std::optional<PlanConfig> lower;
    double concurrency = 0;
    /// The ladder's frontier reading at the target (best group, across configurations), and frontier / R.
    std::optional<double> frontierTputPerGpu;
    PlanStatus frontierStatus = PlanStatus::NoData;
    std::optional<double> frontierRatio;
    int replicaGpus = 0; ///< the sizing knot's; 0 unknown (then GPUs are rounded to whole GPUs)
    double gpusExact = 0; ///< G* = D x (1 + headroom) / R (per sized GPU)
    long long gpus = 0; ///< whole replicas' GPUs
    long long replicas = 0; ///< 0 where the replica size is unknown
    long long nodes = 0; ///< nodes, or racks for an NVL72 system
    int gpusPerNode = 0;
    std::string nodeUnit; ///< "node" or "rack"
    std::optional<double> powerKw, powerMw; ///< G x all-in provisioned kW per GPU (facility included; no PUE)
    std::optional<double> gpuTdpKw; ///< G x the GPU's TDP: the GPUs alone
    std::optional<double> energyJPerToken; ///< all-in: kW x 1,000 / tok/s per sized GPU
    std::optional<double> tokensPerSPerMw; ///< all-in: tok/s per sized GPU x 1,000 / kW
    std::optional<double> measuredJPerToken; ///< GPU only: the sizing knot's avg_power_w / its tok/s/GPU
    std::optional<double> usdPerGpuHour;
    std::string priceSource; ///< tier key, "custom" or "tco"
    std::optional<TcoCost> tco; ///< the effective price's parts, with a TCO model
    std::optional<double> costPerHour, costPerMonth; ///< G x $/GPU/hr; x 730
    std::optional<double> costPerMTok; ///< list: $/GPU/hr / (R x 3600) x 1e6, at full load
    std::optional<double> costPerMTokEffective; ///< $/hour / (D x 3600) x 1e6, at the demand
    bool cheapest = false; ///< the lowest $/month among the hardware sized
    std::vector<std::string> notes; ///< what a reader should know: unknown replica size, no price, no power ...
    /// Sized: a deployable reading (Ok or FasterThanTarget) and a GPU count.
    bool sized() const { return (status == PlanStatus::Ok || status == PlanStatus::FasterThanTarget) && gpus > 0; }
    /// Has a deployable reading (it is sized unless the demand is past counting).
    bool read() const { return status == PlanStatus::Ok || status == PlanStatus::FasterThanTarget; }
};

/// How the reading was taken, for a reader: "measured at concurrency 64", "interpolated between concurrency 16 and
/// 64", "sparse: interpolated between concurrency 4 and 64 (16x apart)", "faster than the target: 58.2 tok/s/user,
/// measured at concurrency 4"; the status words where there is no reading.
std::string planReadingWords(const HardwarePlan& h);
/// The configuration to deploy, for a reader: "TP8 EP8 DPA at concurrency 64", "8P+8D at about concurrency 38
/// (between the measured 16 and 64)"; empty without a reading.
std::string deployAsText(const HardwarePlan& h);

/// The plan at one target: the demand in tokens/s of the metric and every hardware's plan, sorted by hardware.
struct Plan {
    double target = 0;
    double demandTokensPerSecond = 0; ///< D, in tokens/s of the metric
    TputMetric metric = TputMetric::Total;
    std::vector<HardwarePlan> hardware;
    /// The hardware marked cheapest, or none.
    const HardwarePlan* cheapest() const;
    /// The plan of one hardware (its key), or none.
    const HardwarePlan* forHardware(const std::string& key) const;
};

/// Hours in a month for $/month.
constexpr double kHoursPerMonth = 730;

/// The demand in tokens/s of its metric at a target (users x target for Users). Errors: not above zero, req/s
/// The demand a plan sizes, in tok/s: below the least, every plan is one replica and its cost per token no finite
/// number; above the most, the GPU counts pass what can be counted.
constexpr double kMinDemandTokPerS = 1e-3;
constexpr double kMaxDemandTokPerS = 1e12;

/// without fixed lengths.
Result<double> demandTokensPerSecond(
    double demand, DemandUnit unit, double target, const std::optional<std::pair<int, int>>& lengths);

/// The plan at the request's target from frontiers already loaded: pure and fast (a reading and some arithmetic per
/// hardware). Errors: a bad demand, target, headroom or GPUs per node, an unknown tier, a custom price not above zero.
Result<Plan> computePlan(const PlanFrontiers& data, const PlanRequest& request,
    const PricingCatalog& pricing = bundledPricing(), const HardwarePowerCatalog& power = bundledHardwarePower());

/// The cost-of-speed curve: the plan at each target (the request's target aside), in the order given.
Result<std::vector<Plan>> costOfSpeed(const PlanFrontiers& data, const PlanRequest& request,
    const std::vector<double>& targets, const PricingCatalog& pricing = bundledPricing(),
    const HardwarePowerCatalog& power = bundledHardwarePower());

} // namespace paretoscope
