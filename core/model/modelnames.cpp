#include "core/model/modelnames.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "core/model/embedded.h"

namespace paretoscope {

namespace {

// key -> the site's name; read once from the shipped table (checked by tst_importers)
const std::map<std::string, std::string, std::less<>>& siteNames()
{
    static const auto table = [] {
        std::map<std::string, std::string, std::less<>> out;
        const auto doc = nlohmann::json::parse(embedded::model_names_json(), nullptr, false);
        if (doc.is_object() && doc.contains("models") && doc["models"].is_array())
            for (const auto& m : doc["models"])
                if (m.is_object() && m.contains("key") && m["key"].is_string() && m.contains("name")
                    && m["name"].is_string())
                    out.emplace(m["key"].get<std::string>(), m["name"].get<std::string>());
        return out;
    }();
    return table;
}

} // namespace

std::string modelDisplayName(std::string_view model)
{
    const auto& names = siteNames();
    const auto it = names.find(model);
    return it == names.end() ? std::string(model) : it->second;
}

std::string modelLabel(std::string_view model)
{
    const std::string name = modelDisplayName(model);
    return name == model ? name : name + " (" + std::string(model) + ")";
}

ModelChoice resolveModelName(std::string_view given, const std::vector<std::string>& stored)
{
    if (std::find(stored.begin(), stored.end(), given) != stored.end())
        return { std::string(given), {} };
    std::vector<std::string> keys;
    for (const std::string& s : stored)
        if (s != given && modelDisplayName(s) == given && std::find(keys.begin(), keys.end(), s) == keys.end())
            keys.push_back(s);
    if (keys.size() == 1)
        return { keys.front(), {} };
    if (keys.empty())
        return { std::string(given), {} };
    std::string list;
    for (const std::string& k : keys)
        list += (list.empty() ? "" : ", ") + k;
    return { std::string(given),
        "the model name " + std::string(given) + " is the InferenceX site's name of " + list
            + " in this store: give one of those" };
}

std::string benchModelName(std::string_view modelId)
{
    const auto isHash = [](std::string_view part) {
        return part.size() == 40 && std::all_of(part.begin(), part.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        });
    };
    // a Hugging Face cache folder: models--ORG--NAME
    if (const std::size_t at = modelId.find("models--"); at != std::string_view::npos) {
        const std::string_view rest = modelId.substr(at + 8);
        const std::size_t sep = rest.find("--");
        const std::size_t end = rest.find('/');
        if (sep != std::string_view::npos && (end == std::string_view::npos || sep < end)) {
            const std::string_view name = rest.substr(sep + 2, end == std::string_view::npos ? end : end - sep - 2);
            if (!name.empty())
                return std::string(name);
        }
    }
    std::vector<std::string_view> parts;
    for (std::size_t i = 0; i < modelId.size();) {
        const std::size_t slash = std::min(modelId.find('/', i), modelId.size());
        if (slash > i)
            parts.push_back(modelId.substr(i, slash - i));
        i = slash + 1;
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        if (!isHash(*it) && *it != "snapshots")
            return modelId.starts_with('/') || parts.size() > 2 ? std::string(*it) : std::string(modelId);
    return std::string(modelId);
}

} // namespace paretoscope
