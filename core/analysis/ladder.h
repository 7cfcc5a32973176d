#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/analysis/energymetric.h"
#include "core/analysis/frontier.h"
#include "core/analysis/pricing.h"
#include "core/model/result.h"
#include "core/model/scope.h"

namespace paretoscope {

/// One configuration of a group (a line: its concurrencies) on its own curve, as the plan reads it: the frontier of its
/// selected points alone, read between two of its concurrencies only.
struct ConfigLine {
    std::vector<Point> knots; ///< x increasing, y decreasing
    std::vector<int> concurrencies; ///< of each knot (0 unknown)
    MonotoneCurve curve;
};

/// One group's frontier inside a scope, ready to be read.
struct GroupFrontier {
    GroupKey key;
    std::vector<Point> points; ///< the frontier knots (x increasing, y decreasing)
    MonotoneCurve curve;
    /// The spread of reruns (docs/architecture.md section 10.3): the frontiers of each configuration's lowest- and
    /// highest-throughput run; both empty unless some configuration has two or more runs to take it from.
    MonotoneCurve low, high;
    bool hasSpread() const { return !low.empty() && !high.empty(); }
    /// The measured-energy frontier (energy.h, measuredFrontier): tokens per joule of the selected runs that carry
    /// an average power; empty when none does.
    MonotoneCurve measured;
    /// The group's curves whose selected run (Scope::runs Latest) measured fewer points than the run it replaced.
    struct Narrowing {
        int newestDay = 0, replacedDay = 0; ///< yyyymmdd
        int newestPoints = 0, replacedPoints = 0;
    };
    std::vector<Narrowing> narrowed;
    /// Each configuration's own curve (the selected runs that count, by line): what the deployable reading reads.
    std::vector<ConfigLine> lines;
};

/// A narrowed curve in words: "B300 · SGLang · FP8: the newest run (2026-05-02) measured 3 points; the run it
/// replaced (2026-03-10) measured 9".
std::string narrowingNote(const GroupFrontier& group, const GroupFrontier::Narrowing& n);

/// The frontier of a group's candidate points with its reading curve; empty when no point can be on a frontier.
std::optional<GroupFrontier> makeGroupFrontier(GroupKey key, std::vector<Point> candidates);

/// The series of a scope gathered by group key: series of one key (differing workloads when none was asked for)
/// share one frontier.
std::map<GroupKey, std::vector<long long>> seriesByGroup(const std::vector<Series>& series);

/// The deployable reading at a target (docs/architecture.md section 10): the best single configuration, read as the
/// plan reads it. The target is a floor: a configuration's knot at or faster than it, or the target itself between
/// two adjacent concurrencies of that one configuration; never across configurations, as the frontier reading is.
struct DeployableReading {
    GroupKey group;
    double value = 0; ///< tok/s/GPU of the ladder's metric
    double interactivity = 0; ///< where it is read: the target, or a faster knot where none reaches it exactly
    bool interpolated = false; ///< between two concurrencies of the configuration
    bool sparse = false; ///< those two more than kSparseGap apart in interactivity
    double knotBelow = 0, knotAbove = 0; ///< interpolated: the two knots' interactivity
    double concurrency = 0; ///< to run at (interpolated: log concurrency straight against log interactivity); 0 unknown
    long long runId = 0; ///< the knot read (the faster of the two where interpolated)
};
/// Why a ladder target has or has no value (docs/architecture.md section 8).
/// Sparse: every frontier that covers the target was read between knots more than kSparseGap apart, and such
/// readings were asked to be left out.
enum class LadderStatus { Ok, BelowRange, AboveRange, OutOfRange, NoData, Sparse };
std::string_view statusName(LadderStatus s);
/// The status in words for a reader: "below the measured range" ...
std::string_view statusWords(LadderStatus s);
/// The same in a table cell's few words: "-" (a reading), "below range", "above range", "in a gap", "no runs",
/// "hidden: gap". The one set of status words: the ladder's, the readout's and the plan's tables say these.
std::string_view statusShortWords(LadderStatus s);

/// Which of a target's two readings the cost, the energy, the ratios and the ranking use (--reading;
/// docs/architecture.md section 10.2): what one configuration delivers (the default), or the site's frontier across
/// configurations.
enum class Reading { Deployable, Frontier };
/// "deployable", "frontier"
std::string_view readingName(Reading r);
std::optional<Reading> parseReading(std::string_view name);

/// Where a clamped value was taken from: the nearest end of a frontier.
enum class Clamp { None, Below, Above };
std::string_view clampName(Clamp c);

/// The reading at one target for one hardware: the best group whose frontier covers the target.
struct LadderEntry {
    double target = 0;
    LadderStatus status = LadderStatus::NoData;
    std::optional<double> value; ///< tok/s/GPU; empty unless ok, or clamped on request
    std::optional<GroupKey> group;
    Clamp clamped = Clamp::None;
    /// The value is read between two measured points more than kSparseGap apart in interactivity: interpolated
    /// across a gap rather than measured near the target. The bracketing knots' x say how far.
    bool sparse = false;
    double knotBelow = 0, knotAbove = 0;
    /// The spread of reruns at the target, from the group read: the smaller and the larger of its low and high
    /// frontiers' readings (each run sits at its own interactivity, so the two can cross); empty where the group has
    /// no spread or they do not both cover the target. The value itself need not lie inside: it is read on the
    /// selected runs' frontier.
    std::optional<double> low, high;
    /// The deployable reading at the target (readDeployable): what one configuration delivers.
    std::optional<DeployableReading> deployable;
    /// The frontier reading over the deployable one, where both exist and the deployable is above zero.
    std::optional<double> frontierRatio() const;
    /// Whether the two readings differ: each exists and they are more than kReadingsAgree apart. A clamped value
    /// counts as both (read), so its readings never differ. Every place that says the two differ asks this.
    bool readingsDiffer() const;
    /// The reading a choice names: the frontier's value, or the deployable's. A clamped value counts as both: it is
    /// read at an end of a frontier, which is a measured point of one configuration.
    std::optional<double> read(Reading r) const;
    /// The group of that reading.
    std::optional<GroupKey> readGroup(Reading r) const;
    /// Whether that reading lies between measured points more than kSparseGap apart.
    bool readSparse(Reading r) const;
};

/// How far apart the two readings of an entry may be and still be called one number: 1%.
inline constexpr double kReadingsAgree = 0.01;

/// Why the two readings of an entry differ, in one sentence, or empty where they do not (readingsDiffer):
/// "The frontier reads 10,955 tok/s/GPU at 40 tok/s/user between measured points at 16.7 and 138.2 tok/s/user (8.3x
/// apart); the best single configuration (SGLang FP8 at concurrency 128) delivers 1,576
/// (6.95x less)."
std::string readingsDifferSentence(const LadderEntry& e);

/// The widest ratio of interactivity between the two measured points a reading lies between before it is sparse.
constexpr double kSparseGap = 2.0;

/// The configuration of a deployable reading in words: "SGLang · FP4 at concurrency 128", "at concurrency about 176"
/// where it is interpolated between two measured concurrencies.
std::string deployableConfiguration(const DeployableReading& d);
/// A deployable reading as a table cell gives it: "1,576 (SGLang · FP4 at concurrency 128)", "; sparse" where read
/// across a gap.
std::string deployableText(const DeployableReading& d);
/// The frontier's reading of an entry as a cell gives it: "10,762 (Dynamo TRT · FP4 · MTP; sparse)", "-" without one.
std::string frontierText(const LadderEntry& e);
/// The deployable reading of one hardware's groups at a target; empty where no configuration reaches it. With
/// hideSparse a reading across a gap wider than kSparseGap does not count.
std::optional<DeployableReading> readDeployable(
    const std::vector<const GroupFrontier*>& groups, double target, bool hideSparse);

/// Reads the frontiers of one hardware at each target. With clamp, a target no frontier covers is read at the nearest
/// x some frontier covers (an end of a range), marked as clamped below or above; the status still says why. With
/// hideSparse, a group read across a gap wider than kSparseGap does not count; a target only such groups cover has
/// no value (status Sparse).
std::vector<LadderEntry> readLadder(const std::vector<const GroupFrontier*>& groups, const std::vector<double>& targets,
    bool clamp, bool hideSparse = false);

/// The best reading among some groups at one target: the frontier that gives the highest tok/s/GPU there.
struct BestReading {
    std::size_t group = 0; ///< index into the groups it was chosen from
    double value = 0; ///< tok/s/GPU
    bool sparse = false; ///< read across a gap wider than kSparseGap (LadderEntry::sparse)
    double knotBelow = 0, knotAbove = 0;
};

/// The best reading at a target among groups, or none where no frontier covers it. With hideSparse, a reading across
/// a gap wider than kSparseGap does not count; `sparseOnly` (when given) says whether only such readings covered it.
std::optional<BestReading> bestReading(
    const std::vector<const GroupFrontier*>& groups, double target, bool hideSparse, bool* sparseOnly = nullptr);

/// Each hardware's best reading at a target, keyed by hardware name, with `group` an index into `groups`: the rule
/// of the readout (readLadder reads it target by target) and of the chart's labels. A hardware no frontier of which
/// covers the target has no entry. Among equal readings the first group wins. A non-empty `counted` (one flag per
/// group) leaves out the groups flagged false, as the chart does with the groups switched off.
std::map<std::string, BestReading> bestReadingPerHardware(const std::vector<GroupFrontier>& groups, double target,
    bool hideSparse = false, const std::vector<bool>& counted = {});

/// The seed page's targets: 30, 50, 75, 100, 150, 200 tok/s/user.
std::vector<double> defaultTargets();

// ---- the ladder of a scope, priced: what the CLI's `ladder` and the GUI's readout and ladder table read ----

class FrontierCache;
/// Which $/GPU/hr to price with: a shipped tier by key, or the user's own price.
struct PriceChoice {
    std::string tierKey; ///< empty: the catalogue's default tier
    std::optional<double> customUsdPerGpuHour;
    bool operator==(const PriceChoice&) const = default;
};

/// A ladder question: the scope, the targets, the token metric, whether to clamp, and the price.
struct LadderRequest {
    Scope scope;
    std::vector<double> targets = defaultTargets();
    TputMetric metric = TputMetric::Total;
    bool clamp = false;
    bool hideSparse = false; ///< readings across gaps wider than kSparseGap do not count (readLadder)
    Reading reading = Reading::Deployable; ///< which reading the cost, the energy and the ratios use (--reading)
    PriceChoice price;
    /// The energy metric the ladder shows (--metric tok-per-mw|j-per-token|measured-j-per-token); every row carries
    /// all three either way (LadderRow). With one, `metric` is Total.
    EnergyMetric energy = EnergyMetric::None;
    /// An accuracy the groups must meet (--min-accuracy, --allow-unevaluated; docs/evaluations.md). The caller that
    /// has the store judges the groups (judgeAccuracy) and puts those that fail in excludedGroups.
    std::optional<AccuracyRequirement> accuracy;
    /// The task whose accuracy the readings show (--accuracy-task; the explorer's task box); empty: the requirement's,
    /// else GSM8K where evaluated, else the first evaluated (ladderAccuracyTask).
    std::string accuracyTask;
    /// Groups left out of every reading (their hardware stays listed, without them).
    std::vector<GroupKey> excludedGroups;
};

/// One target's reading with its cost.
struct LadderRow {
    LadderEntry entry;
    Reading reading = Reading::Deployable; ///< the one the cost, the energy and the ratios are of
    std::optional<double> value() const { return entry.read(reading); } ///< tok/s/GPU of that reading
    std::optional<GroupKey> group() const { return entry.readGroup(reading); }
    std::optional<double> costPerMTok; ///< $ per million tokens of the chosen metric, at the chosen reading
    std::optional<double> tokensPerDollar;
    std::optional<double> usdPerGpuHour;
    std::string tier; ///< tier key, or "custom"
    std::optional<double> speedOfLightPct; ///< the reading as a share of its hardware's speed of light, percent
    /// Energy of the reading (energy.h): all-in provisioned J/token and tok/s per MW, empty for a hardware the power
    /// registry lacks; measured J/token (GPU only): the lowest among the hardware's groups whose measured frontier
    /// covers the target (measuredGroup names it: runs carry power in some groups only, so it need not be the group
    /// of the throughput reading), empty where none does.
    std::optional<double> allInJoulesPerToken;
    std::optional<double> tokensPerSecondPerMw;
    std::optional<double> measuredJoulesPerToken;
    std::optional<GroupKey> measuredGroup;
    /// The accuracy that comes with the reading's group (attachAccuracy; empty: not evaluated, or not asked).
    std::optional<GroupAccuracy> accuracy;
    std::string accuracyTask; ///< the task attachAccuracy read; empty when it did not run
};

/// The ladder of one hardware.
struct HardwareLadder {
    std::string hardware;
    std::vector<LadderRow> rows;
};

/// Whether a comparison's baseline hardware has a ladder among these: an error that names the hardware there is,
/// as the CLI and the explorer's --view both say it.
Status baselineCovered(const std::vector<HardwareLadder>& ladders, const std::string& baseline);

/// Reads every hardware in scope (or the ones the scope names) at the targets and prices each reading. The same
/// function serves the CLI's `ladder` and the GUI's readout and ladder table.
Result<std::vector<HardwareLadder>> computeLadder(
    FrontierCache& cache, const PricingCatalog& pricing, const LadderRequest& request);
/// The same on frontiers already at hand (the request's scope only picks the hardware): what the GUI calls with the
/// frontiers its worker delivered, so that a slider step never touches the store.
Result<std::vector<HardwareLadder>> computeLadder(
    const std::vector<GroupFrontier>& groups, const PricingCatalog& pricing, const LadderRequest& request);
/// The $/GPU/hr a choice gives for a hardware; empty when the tier has no price for it. Errors: unknown tier,
/// custom price not above zero.
Result<std::optional<double>> priceFor(const PricingCatalog& pricing, const PriceChoice& choice, const std::string& hw);

/// "total", "input", "output"
std::string_view metricName(TputMetric m);
std::optional<TputMetric> parseMetric(std::string_view name);

} // namespace paretoscope
