#include "core/import/formats/fieldnames.h"

#include <cstring>

namespace paretoscope {
namespace {

constexpr std::size_t kFirstSlots = 128; // a power of two; InferenceX rows carry about 60 keys

std::uint64_t hashOf(std::string_view key)
{
    // eight bytes at a time (a key is 10 to 30 bytes), each word mixed in, then a final mix so that the low bits pick
    // the slot well
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ key.size();
    std::size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, key.data() + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    if (i < key.size()) {
        std::uint64_t w = 0;
        std::memcpy(&w, key.data() + i, key.size() - i);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

} // namespace

FieldNames::FieldNames()
    : m_slots(kFirstSlots)
{
}

void FieldNames::clear()
{
    m_count = 0;
    if (++m_generation == 0) { // wrapped: the old generations' marks must not be read as this one's
        for (Slot& s : m_slots)
            s.generation = 0;
        m_generation = 1;
    }
}

bool FieldNames::insert(std::string_view key)
{
    if (2 * (m_count + 1) > m_slots.size())
        grow();
    const std::uint64_t h = hashOf(key);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        Slot& s = m_slots[i];
        if (s.generation != m_generation) {
            s = Slot { h, m_generation };
            ++m_count;
            return true;
        }
        if (s.hash == h)
            return false;
    }
}

void FieldNames::grow()
{
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& s : old) {
        if (s.generation != m_generation)
            continue;
        std::size_t i = s.hash & mask;
        while (m_slots[i].generation == m_generation)
            i = (i + 1) & mask;
        m_slots[i] = s;
    }
}

} // namespace paretoscope
