#include "core/sync/syncchanges.h"

#include <cmath>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/model/displaynames.h"
#include "core/model/modelnames.h"
#include "core/store/runstore.h"
#include "core/store/syncstate.h"

namespace paretoscope {

ReadingsSnapshot snapshotReadings(RunStore& store, const std::vector<ReadingScope>& scopes)
{
    ReadingsSnapshot out;
    FrontierCache cache(store);
    for (const ReadingScope& scope : scopes) {
        if (scope.sequence.agentic)
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
        for (const auto& [key, date] : newestRunDates(store, scope.model, scope.sequence.isl, scope.sequence.osl))
            out.latestDates[{ scope, groupDisplayName(key) }] = date;
    }
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
