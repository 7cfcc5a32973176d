#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace paretoscope {

/// How an evaluation scores accuracy: exact match of the answer as extracted strictly or flexibly, or the task's
/// own score. Values are fractions, 0 to 1 (docs/evaluations.md).
enum class AccuracyMetric { ExactMatchStrict, ExactMatchFlexible, Score };

/// "em_strict", "em_flexible", "score": the InferenceX names, as the CLI takes them.
std::string_view accuracyMetricName(AccuracyMetric m);
std::optional<AccuracyMetric> accuracyMetricFromName(std::string_view name);

/// An accuracy and its standard error (0 when the source gives none), fractions.
struct Accuracy {
    double value = 0;
    double standardError = 0;
};

/// One accuracy run: a configuration evaluated on a task at one concurrency and date (InferenceX's evaluations).
/// Unknown integers are 0.
struct EvaluationRecord {
    std::string model; ///< the database key, as runs store it (dsr1)
    std::string hardware;
    std::string engine;
    std::string precision;
    std::string specDecoding = "none";
    bool disaggregated = false;
    int tp = 0; ///< the decode side's of a disaggregated configuration
    int ep = 0;
    bool dpAttention = false;
    int prefillTp = 0;
    int prefillEp = 0;
    bool prefillDpAttention = false;
    int gpus = 0;
    int concurrency = 0;
    std::string task; ///< gsm8k, gpqa_diamond ...
    std::optional<double> emStrict, emStrictSe, emFlexible, emFlexibleSe, score, scoreSe;
    std::int64_t questions = 0; ///< questions scored (n_eff)
    std::string date; ///< YYYY-MM-DD
    std::string runUrl;

    /// The metric's value and standard error, when the record has the value.
    std::optional<Accuracy> accuracy(AccuracyMetric m) const;
    /// The metric a reading shows by default: strict exact match where the record has it, else flexible, else its
    /// score (a record has one of the three: the importer refuses one without).
    AccuracyMetric defaultMetric() const
    {
        return emStrict  ? AccuracyMetric::ExactMatchStrict
            : emFlexible ? AccuracyMetric::ExactMatchFlexible
                         : AccuracyMetric::Score;
    }
    /// A digest of everything the record says: two records of equal content are one evaluation (an import again).
    std::string contentKey() const;
};

} // namespace paretoscope
