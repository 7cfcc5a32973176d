#include "core/import/formats/recordmapper.h"

#include "core/import/formats/benchservingmappers.h"
#include "core/import/formats/evaluationmapper.h"
#include "core/import/formats/evaluationschema.h"
#include "core/import/formats/inferencexmappers.h"
#include "core/import/formats/paretoscopemapper.h"

namespace paretoscope {

std::string_view formatName(Format f)
{
    switch (f) {
    case Format::InferenceXAgg:
        return "inferencex-agg";
    case Format::InferenceXApi:
        return "inferencex-api";
    case Format::VllmBench:
        return "vllm-bench";
    case Format::SglangBench:
        return "sglang-bench";
    case Format::ParetoscopeJson:
        return "paretoscope-json";
    case Format::ParetoscopeCsv:
        return "paretoscope-csv";
    case Format::InferenceXEvaluations:
        return "inferencex-evaluations";
    case Format::ParetoscopeEvaluationsJson:
        return "paretoscope-evaluations-json";
    case Format::ParetoscopeEvaluationsCsv:
        return "paretoscope-evaluations-csv";
    }
    return "unknown";
}

std::unique_ptr<RecordMapper> makeMapper(Format f, const ImportOptions& options)
{
    switch (f) {
    case Format::InferenceXAgg:
        return makeInferenceXAggMapper();
    case Format::InferenceXApi:
        return makeInferenceXApiMapper();
    case Format::VllmBench:
        return makeVllmBenchMapper(options);
    case Format::SglangBench:
        return makeSglangBenchMapper(options);
    case Format::ParetoscopeJson:
    case Format::ParetoscopeCsv:
        return makeParetoscopeMapper();
    case Format::InferenceXEvaluations:
        return std::make_unique<EvaluationMapper>();
    case Format::ParetoscopeEvaluationsJson:
    case Format::ParetoscopeEvaluationsCsv:
        return makeParetoscopeEvaluationMapper();
    }
    return nullptr;
}

} // namespace paretoscope
