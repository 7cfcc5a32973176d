#include "core/output/evaluationexport.h"

#include <variant>

#include <nlohmann/json.hpp>

#include "core/import/formats/evaluationschema.h"
#include "core/output/celljson.h"
#include "core/output/csvwriter.h"

namespace paretoscope {
namespace {
using json = nlohmann::ordered_json;
} // namespace

std::string evaluationsJson(const std::vector<StoredEvaluation>& evaluations)
{
    std::string out = "[\n";
    for (std::size_t i = 0; i < evaluations.size(); ++i) {
        json o = json::object();
        o["schema"] = std::string(kEvaluationSchema);
        o["evaluation_id"] = evaluations[i].id;
        for (const EvaluationColumn& c : evaluationColumns())
            if (CellValue v = c.get(evaluations[i].record); !std::holds_alternative<std::monostate>(v))
                o[std::string(c.name)] = cellJson(v);
        out += "  " + o.dump(-1, ' ', false, json::error_handler_t::replace);
        out += i + 1 < evaluations.size() ? ",\n" : "\n";
    }
    return out + "]\n";
}

std::string evaluationsCsv(const std::vector<StoredEvaluation>& evaluations)
{
    std::vector<std::string> header { "evaluation_id" };
    for (const EvaluationColumn& c : evaluationColumns())
        header.emplace_back(c.name);
    std::string out = csvLine(header);
    for (const StoredEvaluation& e : evaluations) {
        std::vector<std::string> cells { std::to_string(e.id) };
        for (const EvaluationColumn& c : evaluationColumns())
            cells.push_back(csvCell(c.get(e.record)));
        out += csvLine(cells);
    }
    return out;
}

} // namespace paretoscope
