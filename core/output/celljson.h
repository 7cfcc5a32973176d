#pragma once

#include <optional>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/import/formats/recordschema.h"

namespace paretoscope {

/// One exported cell as JSON: text, integer, number or flag; null when empty.
inline nlohmann::ordered_json cellJson(const CellValue& v)
{
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    if (const auto* i = std::get_if<long long>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* b = std::get_if<bool>(&v))
        return *b;
    return nullptr;
}

/// A number that may be missing, as JSON: the number, or null.
inline nlohmann::ordered_json optionalNumberJson(const std::optional<double>& v)
{
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

} // namespace paretoscope
