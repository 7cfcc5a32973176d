#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/live/requestlog.h"
#include "core/model/result.h"

namespace paretoscope {

/// The raw requests of a level as stored with the session: a small binary format ("PSRQ", version 1, little-endian),
/// four bytes per token chunk, so a level of 10,000 requests of 1,000 tokens takes about 40 MB, not 200 in JSON.
std::string encodeRequests(const std::vector<RequestLog>& requests);

/// Reads what encodeRequests wrote; anything else is an error naming the request and the field, never a crash.
Result<std::vector<RequestLog>> decodeRequests(std::string_view bytes, const std::string& name);

} // namespace paretoscope
