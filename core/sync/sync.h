#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/import/httpfetch.h"
#include "core/model/result.h"
#include "core/sync/synccatalog.h"
#include "core/sync/syncchanges.h"

namespace paretoscope {

class RunStore;

/// The InferenceX site's API, where a sync goes unless told otherwise.
inline constexpr const char* kInferenceXApi = "https://inferencex.semianalysis.com/api/v1";

/// What to sync (docs/sync.md).
struct SyncOptions {
    std::string source = kInferenceXApi; ///< the API's root: the routes are SOURCE/availability, SOURCE/benchmarks ...
    std::vector<std::string> models; ///< display names or database keys; empty: every model
    std::vector<SyncSequence> sequences; ///< empty: every sequence
    bool history = true; ///< every run of each unit (the history route), else the latest view
    bool evaluations = false; ///< the accuracy runs too (the evaluations route)
    std::string since; ///< yyyy-mm-dd: runs dated before it are not stored; empty: no bound
    int jobs = 4; ///< requests in flight at once, 1 to 16
    HttpOptions http = defaultHttp();
    static HttpOptions defaultHttp();
};

/// One request of a sync: a unit (or, for the latest view, a model's units together, or the evaluations) and its URL.
struct SyncItem {
    std::string label; ///< "DeepSeek-R1-0528 1k/1k", "DeepSeek-R1-0528 (latest view)", "evaluations"
    std::string url;
    std::vector<std::size_t> units; ///< indexes in SyncPlan::catalog.units this request brings (none: evaluations)
    /// Per unit, yyyy-mm-dd: its runs dated on or before it were synced before (empty: none were).
    std::vector<std::string> after;
};

/// What a sync will do, known before it fetches anything but the availability route: the plan a progress dialog lists.
struct SyncPlan {
    std::string source;
    SyncCatalog catalog;
    std::vector<SyncItem> items; ///< in the order they are imported
    std::vector<std::size_t> upToDate; ///< units whose newest date was synced before: nothing to fetch
    std::vector<std::string> notes;
};

/// Fetches the availability route and works out what to fetch: the units the options name whose newest date is
/// later than what the store synced from this source (every unit, the first time). Errors: the route unreachable or
/// not the expected format, a model or sequence asked that the source does not have.
Result<SyncPlan> planSync(RunStore& store, const SyncOptions& options);

/// Where an item is.
enum class SyncStage { Fetching, Importing, Done, Failed, Skipped };
struct SyncEvent {
    std::size_t item = 0;
    SyncStage stage = SyncStage::Fetching;
    std::uint64_t bytes = 0; ///< received so far (Fetching)
    std::string message; ///< the error (Failed)
};
/// Told of each item's progress, from any thread (the downloads run on threads of their own). keepGoing is asked
/// often: false cancels: downloads stop, the item being imported is rolled back, what was imported stays.
struct SyncCallbacks {
    std::function<void(const SyncEvent&)> progress;
    std::function<bool()> keepGoing;
};

/// What one item did.
struct SyncItemResult {
    std::string label;
    bool fetched = false;
    std::uint64_t bytes = 0;
    std::uint64_t imported = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t skipped = 0; ///< runs left out: another sequence's, or dated before what was synced before
    std::vector<std::string> notes;
    std::string error; ///< empty when it succeeded
};

/// A sync's outcome: each item's, the changes it brought, and whether it was cancelled.
struct SyncReport {
    std::string source;
    std::int64_t startedAt = 0;
    std::int64_t finishedAt = 0;
    std::vector<SyncItemResult> items;
    std::vector<std::string> upToDate; ///< unit labels with nothing new
    std::vector<std::string> notes;
    SyncChanges changes;
    bool cancelled = false;
    std::size_t failed() const;
};

/// Runs a plan: requests up to options.jobs at once, each streamed into an unnamed file beside the store and tried
/// again on 429, 5xx, a cut connection or a stall (Retry-After honoured); the answers imported one at a time, in
/// plan order, each in its own transaction, and each unit marked synced once its import committed. A failed item is
/// reported and the others go on; the next sync fetches it again. Then the changes (readings before and after) are
/// worked out and the summary logged in the store.
SyncReport runSync(RunStore& store, const SyncPlan& plan, const SyncOptions& options, const SyncCallbacks& callbacks);

/// The summary as one JSON line (what `paretoscope-cli sync` prints and the store logs).
std::string syncReportJson(const SyncReport& report);

} // namespace paretoscope
