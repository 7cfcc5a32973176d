#include "core/import/formats/fieldnames.h"

namespace paretoscope {
namespace {

constexpr std::size_t kFirstSlots = 128; // a power of two; InferenceX rows carry about 60 keys

std::uint64_t hashOf(std::string_view key)
{
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a, then a final mix so the low bits pick the slot well
    for (const char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
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
