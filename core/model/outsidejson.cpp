#include "core/model/outsidejson.h"

#include <set>
#include <vector>

namespace paretoscope {

using nlohmann::json;

int jsonNestingDepth(std::string_view text, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

Result<json> parseOutsideJson(std::string_view text, const std::string& name, int maxDepth)
{
    if (jsonNestingDepth(text, maxDepth) > maxDepth)
        return Error { name + ": nested deeper than " + std::to_string(maxDepth) + " levels: refused" };
    // the keys seen so far in each open object, to find one given twice
    std::vector<std::set<std::string>> keys;
    std::string twice;
    json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
        switch (event) {
        case json::parse_event_t::object_start:
            keys.emplace_back();
            break;
        case json::parse_event_t::object_end:
            if (!keys.empty())
                keys.pop_back();
            break;
        case json::parse_event_t::key:
            if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second && twice.empty())
                twice = parsed.get<std::string>();
            break;
        default:
            break;
        }
        return true;
    };
    json doc = json::parse(text, check, false);
    if (doc.is_discarded())
        return Error { name + ": not valid JSON" };
    if (!twice.empty())
        return Error { name + ": the key \"" + twice + "\" is given twice in one object" };
    return doc;
}

std::string jsonText(const json& value, int indent)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace paretoscope
