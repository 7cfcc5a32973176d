#pragma once

#include <cstdint>
#include <vector>

namespace paretoscope {

/// The keys ordered as the signed 64-bit integers SQLite stores them as (a radix sort: 16 bits a pass).
inline std::vector<std::uint64_t> sortedAsSigned(std::vector<std::uint64_t> a)
{
    std::vector<std::uint64_t> b(a.size());
    constexpr std::uint64_t kSign = std::uint64_t(1) << 63; // flipped: negative values first
    for (int pass = 0; pass < 4; ++pass) {
        const int shift = 16 * pass;
        std::vector<std::size_t> start(65537, 0);
        for (std::uint64_t k : a)
            ++start[(((k ^ kSign) >> shift) & 0xFFFF) + 1];
        for (std::size_t d = 1; d < start.size(); ++d)
            start[d] += start[d - 1];
        for (std::uint64_t k : a)
            b[start[((k ^ kSign) >> shift) & 0xFFFF]++] = k;
        a.swap(b);
    }
    return a;
}

/// A set of 64-bit keys (content hashes, already well mixed) with open addressing and linear probing: 8 bytes a slot,
/// at most half full. An import keeps its new hashes here, so that duplicates within the file are found without
/// touching SQLite.
class U64Set {
public:
    /// Adds key; false if it was already there.
    bool insert(std::uint64_t key)
    {
        if (key == 0) {
            bool fresh = !m_hasZero;
            m_hasZero = true;
            m_size += fresh;
            return fresh;
        }
        if ((m_size + 1) * 2 > m_slots.size())
            grow();
        if (!place(m_slots, key))
            return false;
        ++m_size;
        return true;
    }

    bool contains(std::uint64_t key) const
    {
        if (key == 0)
            return m_hasZero;
        if (m_slots.empty())
            return false;
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
            if (m_slots[i] == key)
                return true;
            if (m_slots[i] == 0)
                return false;
        }
    }

    std::size_t size() const { return m_size; }

    /// Starts loading the slot where key would go, for an insert() or contains() of it a little later: in a set of
    /// a million keys that slot is rarely in the cache, and the wait was most of an insert.
    void prefetch(std::uint64_t key) const
    {
        if (!m_slots.empty())
            __builtin_prefetch(&m_slots[slotOf(key, m_slots.size() - 1)]);
    }

    /// Every key, in no particular order.
    std::vector<std::uint64_t> keys() const
    {
        std::vector<std::uint64_t> out;
        out.reserve(m_size);
        if (m_hasZero)
            out.push_back(0);
        for (std::uint64_t k : m_slots) {
            if (k != 0)
                out.push_back(k);
        }
        return out;
    }

    /// Every key, ordered as the signed 64-bit integers SQLite stores them as.
    std::vector<std::uint64_t> keysInSignedOrder() const { return sortedAsSigned(keys()); }

private:
    static std::size_t slotOf(std::uint64_t key, std::size_t mask)
    {
        // the keys are hashes already; one multiply spreads keys that differ only in high bits
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    }

    static bool place(std::vector<std::uint64_t>& table, std::uint64_t key)
    {
        const std::size_t mask = table.size() - 1;
        for (std::size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
            if (table[i] == key)
                return false;
            if (table[i] == 0) {
                table[i] = key;
                return true;
            }
        }
    }

    void grow()
    {
        std::vector<std::uint64_t> bigger(m_slots.empty() ? 1024 : m_slots.size() * 2, 0);
        for (std::uint64_t k : m_slots) {
            if (k != 0)
                place(bigger, k);
        }
        m_slots.swap(bigger);
    }

    std::vector<std::uint64_t> m_slots; // 0 marks an empty slot; key 0 itself is kept in m_hasZero
    std::size_t m_size = 0;
    bool m_hasZero = false;
};

} // namespace paretoscope
