#include "core/analysis/baseline.h"

#include <algorithm>
#include <cstdio>

namespace paretoscope {

std::string_view baselineStatusName(BaselineStatus s)
{
    switch (s) {
    case BaselineStatus::Ok:
        return "ok";
    case BaselineStatus::Baseline:
        return "baseline";
    case BaselineStatus::NoBaseline:
        return "no_baseline";
    case BaselineStatus::BaselineNoValue:
        return "baseline_no_value";
    case BaselineStatus::NoValue:
        return "no_value";
    case BaselineStatus::WithinSpread:
        return "within_spread";
    }
    return "no_baseline";
}

std::string ratioText(const BaselineRatio& r)
{
    if (r.status == BaselineStatus::Baseline)
        return "baseline";
    if (!r.ratio)
        return "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1fx", *r.ratio);
    return r.status == BaselineStatus::WithinSpread ? std::string(buf) + ", " + kWithinSpreadWords : buf;
}

bool spreadsOverlap(const LadderEntry& a, const LadderEntry& b)
{
    if (!a.value || !b.value || (!a.low && !b.low))
        return false;
    const double aLow = a.low ? *a.low : *a.value, aHigh = a.high ? *a.high : *a.value;
    const double bLow = b.low ? *b.low : *b.value, bHigh = b.high ? *b.high : *b.value;
    return std::max(aLow, bLow) <= std::min(aHigh, bHigh);
}

BaselineRatio baselineRatio(const LadderEntry& reading, const LadderEntry& baselineReading, bool isBaseline)
{
    BaselineRatio r = baselineRatio(reading.value, baselineReading.value, isBaseline);
    if (r.status == BaselineStatus::Ok && spreadsOverlap(reading, baselineReading))
        r.status = BaselineStatus::WithinSpread;
    return r;
}

BaselineRatio baselineRatio(
    const std::optional<double>& reading, const std::optional<double>& baselineReading, bool isBaseline)
{
    const bool baseOk = baselineReading && *baselineReading > 0;
    if (isBaseline)
        return { BaselineStatus::Baseline, reading && baseOk ? std::optional<double>(1.0) : std::nullopt };
    if (!baseOk)
        return { BaselineStatus::BaselineNoValue, std::nullopt };
    if (!reading)
        return { BaselineStatus::NoValue, std::nullopt };
    return { BaselineStatus::Ok, *reading / *baselineReading };
}

std::vector<std::vector<BaselineRatio>> baselineRatios(
    const std::vector<HardwareLadder>& ladders, const std::string& baseline)
{
    const auto base = std::find_if(ladders.begin(), ladders.end(),
        [&](const HardwareLadder& l) { return !baseline.empty() && l.hardware == baseline; });
    std::vector<std::vector<BaselineRatio>> out;
    out.reserve(ladders.size());
    for (const HardwareLadder& l : ladders) {
        std::vector<BaselineRatio> ratios(l.rows.size());
        if (base != ladders.end())
            for (std::size_t j = 0; j < l.rows.size(); ++j) {
                // the same target in the baseline's ladder: the same index when the ladders share their targets
                const LadderRow& row = l.rows[j];
                const LadderRow* baseRow = j < base->rows.size() && base->rows[j].entry.target == row.entry.target
                    ? &base->rows[j]
                    : nullptr;
                if (row.reading == Reading::Frontier) { // the spread of reruns is the frontier's
                    ratios[j] = baselineRatio(row.entry, baseRow ? baseRow->entry : LadderEntry {}, &l == &*base);
                } else {
                    ratios[j] = baselineRatio(row.value(), baseRow ? baseRow->value() : std::nullopt, &l == &*base);
                }
            }
        out.push_back(std::move(ratios));
    }
    return out;
}

} // namespace paretoscope
