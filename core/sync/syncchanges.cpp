#include "core/sync/syncchanges.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/model/displaynames.h"
#include "core/model/modelnames.h"
#include "core/store/runstore.h"
#include "core/store/syncstate.h"

namespace paretoscope {

ReadingsSnapshot snapshotReadings(RunStore& store, const std::vector<ReadingScope>& scopes, bool readings)
{
    ReadingsSnapshot out;
    FrontierCache cache(store);
    for (const ReadingScope& scope : scopes) {
        if (scope.sequence.agentic)
            continue;
        for (const auto& [key, date] : newestRunDates(store, scope.model, scope.sequence.isl, scope.sequence.osl))
            out.latestDates[{ scope, groupDisplayName(key) }] = date;
        if (!readings)
            continue;
        LadderRequest request;
        request.scope.model = scope.model;
        request.scope.isl = scope.sequence.isl;
        request.scope.osl = scope.sequence.osl;
        if (auto ladders = computeLadder(cache, bundledPricing(), request)) {
            for (const HardwareLadder& ladder : *ladders)
                for (const LadderRow& row : ladder.rows)
                    if (row.entry.value && row.entry.status == LadderStatus::Ok)
                        out.readings[{ scope, ladder.hardware, row.entry.target }]
                            = ReadingsSnapshot::Reading { *row.entry.value,
                                  row.entry.group ? groupDisplayName(*row.entry.group) : std::string() };
        }
    }
    return out;
}

ReadingsSnapshot snapshotAfter(RunStore& store, const std::vector<ReadingScope>& scopes, const ReadingsSnapshot& before)
{
    std::vector<ReadingScope> held, fresh;
    for (const ReadingScope& scope : scopes) {
        const bool hadRuns = std::any_of(before.latestDates.begin(), before.latestDates.end(),
            [&](const auto& entry) { return std::get<0>(entry.first) == scope; });
        (hadRuns ? held : fresh).push_back(scope);
    }
    ReadingsSnapshot out = snapshotReadings(store, held, true);
    ReadingsSnapshot dates = snapshotReadings(store, fresh, false);
    out.latestDates.merge(dates.latestDates);
    return out;
}

void compareSnapshots(const ReadingsSnapshot& before, const ReadingsSnapshot& after, SyncChanges& out)
{
    for (const auto& [key, date] : after.latestDates) {
        auto was = before.latestDates.find(key);
        if (was != before.latestDates.end() && was->second >= date)
            continue;
        const ReadingScope& scope = std::get<0>(key);
        out.lines.push_back({ modelDisplayName(scope.model), scope.sequence.label(), std::get<1>(key),
            was == before.latestDates.end() ? std::string() : was->second, date });
    }
    auto moved = [](const ReadingsSnapshot::ReadingKey& key, const ReadingsSnapshot::Reading* b,
                     const ReadingsSnapshot::Reading* a) {
        const ReadingScope& scope = std::get<0>(key);
        ReadingChange c;
        c.model = modelDisplayName(scope.model);
        c.sequence = scope.sequence.label();
        c.hardware = std::get<1>(key);
        c.target = std::get<2>(key);
        if (b) {
            c.before = b->value;
            c.groupBefore = b->group;
        }
        if (a) {
            c.after = a->value;
            c.groupAfter = a->group;
        }
        return c;
    };
    for (const auto& [key, reading] : after.readings) {
        auto was = before.readings.find(key);
        if (was == before.readings.end())
            out.readings.push_back(moved(key, nullptr, &reading));
        else if (std::abs(reading.value - was->second.value) > kReadingMoveShare * std::abs(was->second.value))
            out.readings.push_back(moved(key, &was->second, &reading));
    }
    for (const auto& [key, reading] : before.readings)
        if (!after.readings.contains(key))
            out.readings.push_back(moved(key, &reading, nullptr));
}

} // namespace paretoscope
