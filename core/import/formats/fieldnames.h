#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace paretoscope {

/// The keys of one record read so far, so that a key given twice refuses the record (docs/formats.md, "Duplicate
/// keys"): a JSON reader would otherwise keep one of the two values without a word. An open-addressed table of the
/// keys' 64-bit hashes, emptied per record by a generation count: a record of k keys costs O(k), whatever k is.
class FieldNames {
public:
    FieldNames();
    /// A new record: no key seen.
    void clear();
    /// Notes a key; false when the record gave it before.
    bool insert(std::string_view key);

private:
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t generation = 0;
    };
    void grow();

    std::vector<Slot> m_slots;
    std::uint32_t m_generation = 1;
    std::size_t m_count = 0;
};

} // namespace paretoscope
