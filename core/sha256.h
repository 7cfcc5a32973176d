#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace paretoscope {

/// Incremental SHA-256 (FIPS 180-4), so a file is hashed while it streams through the importer.
class Sha256 {
public:
    Sha256();
    /// Adds bytes to the message.
    void update(const void* data, std::size_t size);
    /// Finishes and returns the digest as 64 lower-case hex characters; the object is then spent.
    std::string hex();

    /// Digest of a whole buffer.
    static std::string of(std::string_view data);

private:
    void block(const unsigned char* p);

    std::array<std::uint32_t, 8> m_h;
    std::array<unsigned char, 64> m_buf {};
    std::size_t m_bufLen = 0;
    std::uint64_t m_total = 0;
};

} // namespace paretoscope
