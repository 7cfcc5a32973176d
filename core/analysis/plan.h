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

/// What a plan needs from the store for one scope, loaded once: the frontiers with the scope's SLO limits (on total
/// and on output tokens), the hardware seen without the limits, and the configuration of every knot. Computing a
/// plan from it (computePlan) never touches the store.
struct PlanFrontiers {
    Scope scope;
    std::vector<GroupFrontier> total, output; ///< ordered by group key, as FrontierCache gives them
    std::vector<std::string> hardwareWithoutLimits; ///< hardware with a frontier in the scope before the limits
    std::map<long long, PlanConfig> configs; ///< by run id: every knot of total and output
    std::optional<std::pair<int, int>> lengths; ///< (isl, osl) when every series in scope has the same fixed ones
    std::map<std::string, double> measuredGpuW; ///< per hardware: mean avg_power_w of its knots' runs, where any
    const std::vector<GroupFrontier>& frontiers(TputMetric m) const;
    /// No run in scope at all, limits aside: the empty-scope message applies.
    bool empty() const { return hardwareWithoutLimits.empty(); }
};

/// Reads the scope's frontiers (only runs meeting Scope::ttftMax / tpotMax count; a run without the statistic does
/// not meet a limit) and their knots' configurations. Check store.readStatus() after it.
PlanFrontiers loadPlanFrontiers(RunStore& store, const Scope& scope);

/// A hardware's plan status: the ladder's (at the target) or SloNotMet (no run of it meets the SLO limits).
enum class PlanStatus { Ok, BelowRange, AboveRange, OutOfRange, NoData, Sparse, SloNotMet };
/// "ok", "below_range", "above_range", "out_of_range", "no_data", "sparse", "slo_not_met"
std::string_view planStatusName(PlanStatus s);
/// For a reader: "below the measured range", "no run meets the SLO limits" ...
std::string_view planStatusWords(PlanStatus s);

/// One hardware's plan at the target. Sizing fields are set only when the status is Ok; cost fields only when a
/// price is known; power fields only when resources/hardware_power.json knows the hardware.
struct HardwarePlan {
    std::string hardware;
    PlanStatus status = PlanStatus::NoData;
    std::optional<double> tputPerGpu; ///< the reading R at the target (tok/s/GPU of the unit's metric), as the ladder
    /// R spread over all of a replica's GPUs: R, except for output tokens on a disaggregated configuration, where
    /// InferenceX counts decode GPUs only: R x decode / (prefill + decode). Sizing, energy and list cost use it.
    std::optional<double> tputPerSizedGpu;
    std::optional<GroupKey> group; ///< engine, precision, spec decoding of the reading
    bool sparse = false; ///< read across a gap wider than kSparseGap
    std::optional<PlanConfig> sizing; ///< the knot with the smallest interactivity at or above the target
    std::optional<PlanConfig> lower; ///< the knot with the largest interactivity at or below the target
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
};

/// The plan at one target: the demand in tokens/s of the metric and every hardware's plan, sorted by hardware.
struct Plan {
    double target = 0;
    double demandTokensPerSecond = 0; ///< D, in tokens/s of the metric
    TputMetric metric = TputMetric::Total;
    std::vector<HardwarePlan> hardware;
    /// The hardware marked cheapest, or none.
    const HardwarePlan* cheapest() const;
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
