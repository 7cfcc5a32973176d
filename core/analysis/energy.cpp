#include "core/analysis/energy.h"

#include <cmath>

#include "core/analysis/frontier.h"

namespace paretoscope {

std::string_view energyMetricName(EnergyMetric m)
{
    switch (m) {
    case EnergyMetric::None:
        return "";
    case EnergyMetric::TokensPerMegawatt:
        return "tok-per-mw";
    case EnergyMetric::JoulesPerToken:
        return "j-per-token";
    case EnergyMetric::MeasuredJoulesPerToken:
        return "measured-j-per-token";
    }
    return "";
}

std::optional<EnergyMetric> parseEnergyMetric(std::string_view name)
{
    for (EnergyMetric m :
        { EnergyMetric::TokensPerMegawatt, EnergyMetric::JoulesPerToken, EnergyMetric::MeasuredJoulesPerToken })
        if (name == energyMetricName(m))
            return m;
    return std::nullopt;
}

std::string_view energyBasis(EnergyMetric m)
{
    return m == EnergyMetric::MeasuredJoulesPerToken ? "measured, GPU only" : "all-in provisioned";
}

std::string energyLabel(EnergyMetric m)
{
    const std::string unit = m == EnergyMetric::TokensPerMegawatt ? "tok/s per MW" : "J/token";
    return unit + " (" + std::string(energyBasis(m)) + ")";
}

bool lowerIsBetter(EnergyMetric m)
{
    return m == EnergyMetric::JoulesPerToken || m == EnergyMetric::MeasuredJoulesPerToken;
}

std::optional<double> allInEnergy(
    EnergyMetric m, const HardwarePowerCatalog& power, const std::string& hardware, double tputPerGpu)
{
    const HardwarePower* hw = power.find(hardware);
    if (!hw || !(tputPerGpu > 0))
        return std::nullopt;
    if (m == EnergyMetric::TokensPerMegawatt)
        return tokensPerSecondPerAllInMegawatt(hw->allInKw, tputPerGpu);
    if (m == EnergyMetric::JoulesPerToken)
        return allInJoulesPerToken(hw->allInKw, tputPerGpu);
    return std::nullopt;
}

MonotoneCurve measuredFrontier(const std::vector<RunPoint>& runs, bool includeMarked)
{
    std::vector<Point> perJoule;
    for (const RunPoint& r : runs)
        if (r.avgPowerW > 0 && r.interactivity > 0 && r.tputPerGpu > 0 && (!r.marked || includeMarked))
            perJoule.push_back(Point { r.interactivity, r.tputPerGpu / r.avgPowerW, r.runId, r.marked });
    if (perJoule.empty())
        return {};
    return MonotoneCurve(upperLeftFrontier(std::move(perJoule)));
}

std::optional<double> measuredJoulesAt(const GroupFrontier& group, double target)
{
    if (group.measured.empty())
        return std::nullopt;
    auto perJoule = group.measured.at(target);
    if (!perJoule || !(*perJoule > 0))
        return std::nullopt;
    return 1.0 / *perJoule;
}

void attachEnergy(
    std::vector<HardwareLadder>& ladders, const std::vector<GroupFrontier>& groups, const HardwarePowerCatalog& power)
{
    for (HardwareLadder& l : ladders)
        for (LadderRow& r : l.rows) {
            const auto v = r.value(); // the reading chosen (LadderRequest::reading)
            if (!v)
                continue;
            r.allInJoulesPerToken = allInEnergy(EnergyMetric::JoulesPerToken, power, l.hardware, *v);
            r.tokensPerSecondPerMw = allInEnergy(EnergyMetric::TokensPerMegawatt, power, l.hardware, *v);
        }
    // measured: per hardware the lowest J/token among its groups at the target, whatever the throughput reading is
    for (HardwareLadder& l : ladders)
        for (LadderRow& r : l.rows)
            for (const GroupFrontier& g : groups) {
                if (g.key.hardware != l.hardware)
                    continue;
                auto j = measuredJoulesAt(g, r.entry.target);
                if (j && (!r.measuredJoulesPerToken || *j < *r.measuredJoulesPerToken)) {
                    r.measuredJoulesPerToken = j;
                    r.measuredGroup = g.key;
                }
            }
}

std::optional<double> rowEnergy(const LadderRow& row, EnergyMetric m)
{
    switch (m) {
    case EnergyMetric::None:
        return std::nullopt;
    case EnergyMetric::TokensPerMegawatt:
        return row.tokensPerSecondPerMw;
    case EnergyMetric::JoulesPerToken:
        return row.allInJoulesPerToken;
    case EnergyMetric::MeasuredJoulesPerToken:
        return row.measuredJoulesPerToken;
    }
    return std::nullopt;
}

} // namespace paretoscope
