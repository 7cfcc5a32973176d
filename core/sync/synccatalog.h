#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// A sequence as the InferenceX API names it: fixed lengths (isl and osl) or the agentic trace scenario.
struct SyncSequence {
    int isl = 0;
    int osl = 0;
    bool agentic = false;
    /// "1k/1k", "8k/1k", "1000/200" where a length is not a multiple of 1,024, "agentic".
    std::string label() const;
    auto operator<=>(const SyncSequence&) const = default;
};

/// A sequence given by a person ("1k/1k", "8192/1024", "agentic"); an error says what is accepted.
Result<SyncSequence> parseSyncSequence(std::string_view text);

/// What a sync fetches as one: a model (the API's display name, which several database keys may share) and a
/// sequence, with every date the availability route lists for it.
struct SyncUnit {
    std::string display; ///< the name the routes take ("DeepSeek-R1-0528")
    std::vector<std::string> keys; ///< the database keys under it, as the rows carry them ("dsr1"), sorted
    SyncSequence sequence;
    std::vector<std::string> dates; ///< yyyy-mm-dd, ascending, each once
    /// "DeepSeek-R1-0528 1k/1k": the unit as messages and the store's sync state name it.
    std::string label() const { return display + " " + sequence.label(); }
};

/// The availability route read: the units, sorted by display name and sequence, and notes (a key the model name
/// table does not know is synced under the key itself).
struct SyncCatalog {
    std::vector<SyncUnit> units;
    std::vector<std::string> notes;
};

/// Reads the availability route's answer (an array of rows with model, isl, osl, date and the configuration's
/// fields; docs/sync.md). A row whose model, lengths or date is missing or of the wrong type refuses the whole
/// answer, naming `name`, the row and the field. Bounded: at most kMaxAvailabilityRows rows.
Result<SyncCatalog> parseAvailability(std::string_view json, const std::string& name);
inline constexpr std::size_t kMaxAvailabilityRows = 1'000'000;

} // namespace paretoscope
