#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/model/result.h"

namespace paretoscope {

/// Parses a small JSON document someone else wrote (a matrix, a TCO model, a journal line): nesting deeper than
/// maxDepth is refused before the parser sees it (a document nested 100,000 deep would exhaust the stack), and so is
/// an object that gives one key twice (the parser would keep the last silently). Errors start with `name`.
Result<nlohmann::json> parseOutsideJson(std::string_view text, const std::string& name, int maxDepth);

/// The deepest nesting of arrays and objects in a JSON text (strings skipped), counting up to limit + 1 at most.
int jsonNestingDepth(std::string_view text, int limit);

/// A JSON value as text for output: bytes that are not UTF-8 (a status file cut mid-character, a name typed in
/// another encoding) become U+FFFD instead of aborting the dump. indent as nlohmann's dump takes it.
std::string jsonText(const nlohmann::json& value, int indent = -1);

} // namespace paretoscope
