#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace paretoscope {

/// Incremental SHA-256, so a file is hashed while it streams through the importer. OpenSSL's libcrypto does the work
/// (it uses the CPU's SHA instructions where present; the hash of a 1 GB import must not cost a second).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    /// Adds bytes to the message.
    void update(const void* data, std::size_t size);
    /// Finishes and returns the digest as 64 lower-case hex characters; the object is then spent.
    std::string hex();

    /// Digest of a whole buffer.
    static std::string of(std::string_view data);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace paretoscope
