#include "core/sync/syncanswer.h"

#include <algorithm>

#include "core/import/formats/recordmapper.h"
#include "core/model/runselection.h"

namespace paretoscope {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::string lengthsOf(const RunRecord& r)
{
    return r.isl == 0 && r.osl == 0 ? std::string("without lengths")
                                    : std::to_string(r.isl) + "/" + std::to_string(r.osl);
}

} // namespace

SyncAnswerCheck::SyncAnswerCheck(const SyncPlan& plan, const SyncItem& item, const SyncOptions& options)
    : m_plan(plan)
    , m_item(item)
    , m_history(options.history)
    , m_sinceDay(options.since.empty() ? 0 : dayNumber(options.since))
    , m_held(item.units.size())
{
    for (std::size_t k = 0; k < item.units.size(); ++k) {
        const int after = dayNumber(item.after[k]);
        m_afterDay.push_back(after);
        std::vector<int> expected;
        for (const std::string& date : plan.catalog.units[item.units[k]].dates)
            if (const int day = dayNumber(date); day > after && day >= m_sinceDay)
                expected.push_back(day);
        if (!m_history && expected.size() > 1) // the latest view holds each configuration's newest run only
            expected.erase(expected.begin(), expected.end() - 1);
        m_expected.push_back(std::move(expected));
    }
}

ImportOptions SyncAnswerCheck::importOptions()
{
    ImportOptions o;
    if (m_item.units.empty()) {
        o.acceptFormats = { Format::InferenceXEvaluations };
        return o;
    }
    o.acceptFormats = { Format::InferenceXApi };
    o.expect = [this](const RunRecord& r) { return checkRow(r); };
    o.keep = [this](const RunRecord& r) { return keepRow(r); };
    o.complete = [this] { return whole(); };
    return o;
}

std::size_t SyncAnswerCheck::unitOf(const RunRecord& r, bool& modelOfItem) const
{
    modelOfItem = false;
    std::size_t agentic = kNone;
    for (std::size_t k = 0; k < m_item.units.size(); ++k) {
        const SyncUnit& unit = m_plan.catalog.units[m_item.units[k]];
        if (!std::binary_search(unit.keys.begin(), unit.keys.end(), r.model))
            continue;
        modelOfItem = true;
        if (unit.sequence.agentic)
            agentic = k;
        else if (r.isl == unit.sequence.isl && r.osl == unit.sequence.osl)
            return k;
    }
    return agentic;
}

Status SyncAnswerCheck::checkRow(const RunRecord& r)
{
    bool modelOfItem = false;
    const std::size_t k = unitOf(r, modelOfItem);
    // the latest view answers every sequence of its model: those not asked are skipped (keepRow), not refused
    if (k == kNone && (!modelOfItem || m_history))
        return Error { "a run of model '" + r.model.substr(0, 200) + "', " + lengthsOf(r) + ", in the answer for "
            + m_item.label + ": another unit's row, refused (the server answered what was not asked)" };
    if (k != kNone)
        if (const int day = dayNumber(r.runDate); day != 0)
            m_held[k].insert(day);
    return ok();
}

bool SyncAnswerCheck::keepRow(const RunRecord& r) const
{
    bool modelOfItem = false;
    const std::size_t k = unitOf(r, modelOfItem);
    if (k == kNone)
        return false;
    const int day = dayNumber(r.runDate);
    if (day == 0)
        return true;
    return day >= m_sinceDay && day > m_afterDay[k];
}

Status SyncAnswerCheck::whole() const
{
    for (std::size_t k = 0; k < m_item.units.size(); ++k) {
        const std::vector<int>& expected = m_expected[k];
        const auto missing
            = std::find_if(expected.begin(), expected.end(), [&](int day) { return !m_held[k].contains(day); });
        if (missing == expected.end())
            continue;
        const auto count
            = std::count_if(expected.begin(), expected.end(), [&](int day) { return m_held[k].contains(day); });
        return Error { "a short answer: it holds no run of " + m_plan.catalog.units[m_item.units[k]].label() + " dated "
            + dayText(*missing) + ", which the availability route lists (it held " + std::to_string(count) + " of the "
            + std::to_string(expected.size()) + (m_history ? " dates asked" : " newest date asked")
            + "): nothing of it stored, the unit not marked; the next sync asks again" };
    }
    return ok();
}

Status SyncAnswerCheck::emptyAnswer() const
{
    for (std::size_t k = 0; k < m_item.units.size(); ++k)
        if (!m_expected[k].empty())
            return Error { m_item.label + ": a short answer: no rows, where the availability route lists "
                + m_plan.catalog.units[m_item.units[k]].label() + " on " + dayText(m_expected[k].back())
                + ": the unit not marked; the next sync asks again" };
    return ok();
}

std::string SyncAnswerCheck::markOf(std::size_t k) const
{
    if (!m_held[k].empty())
        return dayText(*m_held[k].rbegin());
    const SyncUnit& unit = m_plan.catalog.units[m_item.units[k]];
    return unit.dates.empty() ? std::string() : unit.dates.back();
}

} // namespace paretoscope
