#include "core/model/evaluation.h"

#include <cstdio>

#include "core/model/sha256.h"

namespace paretoscope {

std::string_view accuracyMetricName(AccuracyMetric m)
{
    switch (m) {
    case AccuracyMetric::ExactMatchStrict:
        return "em_strict";
    case AccuracyMetric::ExactMatchFlexible:
        return "em_flexible";
    case AccuracyMetric::Score:
        return "score";
    }
    return "em_strict";
}

std::optional<AccuracyMetric> accuracyMetricFromName(std::string_view name)
{
    for (AccuracyMetric m :
        { AccuracyMetric::ExactMatchStrict, AccuracyMetric::ExactMatchFlexible, AccuracyMetric::Score })
        if (accuracyMetricName(m) == name)
            return m;
    return std::nullopt;
}

std::optional<Accuracy> EvaluationRecord::accuracy(AccuracyMetric m) const
{
    const auto pick = [](const std::optional<double>& v, const std::optional<double>& se) -> std::optional<Accuracy> {
        if (!v)
            return std::nullopt;
        return Accuracy { *v, se.value_or(0) };
    };
    switch (m) {
    case AccuracyMetric::ExactMatchStrict:
        return pick(emStrict, emStrictSe);
    case AccuracyMetric::ExactMatchFlexible:
        return pick(emFlexible, emFlexibleSe);
    case AccuracyMetric::Score:
        return pick(score, scoreSe);
    }
    return std::nullopt;
}

std::string EvaluationRecord::contentKey() const
{
    std::string text;
    const auto add = [&text](std::string_view s) {
        text += s;
        text += '\x1f';
    };
    const auto number = [&add](const std::optional<double>& v) {
        char buf[32] = "-";
        if (v)
            std::snprintf(buf, sizeof buf, "%.17g", *v);
        add(buf);
    };
    for (const std::string* s : { &model, &hardware, &engine, &precision, &specDecoding, &task, &date, &runUrl })
        add(*s);
    for (long long v : { (long long)disaggregated, (long long)tp, (long long)ep, (long long)dpAttention,
             (long long)prefillTp, (long long)prefillEp, (long long)prefillDpAttention, (long long)gpus,
             (long long)concurrency, (long long)questions })
        add(std::to_string(v));
    for (const std::optional<double>* v : { &emStrict, &emStrictSe, &emFlexible, &emFlexibleSe, &score, &scoreSe })
        number(*v);
    return Sha256::of(text);
}

} // namespace paretoscope
