#include "core/model/sha256.h"

#include <openssl/evp.h>

namespace paretoscope {

struct Sha256::Impl {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256()
    : m_impl(std::make_unique<Impl>())
{
    EVP_DigestInit_ex(m_impl->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256() = default;

void Sha256::update(const void* data, std::size_t size)
{
    EVP_DigestUpdate(m_impl->ctx, data, size);
}

std::string Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_impl->ctx, digest, &len);
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(std::size_t { 2 } * len);
    for (unsigned int i = 0; i < len; ++i) {
        out.push_back(digits[digest[i] >> 4]);
        out.push_back(digits[digest[i] & 0xf]);
    }
    return out;
}

std::string Sha256::of(std::string_view data)
{
    Sha256 s;
    s.update(data.data(), data.size());
    return s.hex();
}

} // namespace paretoscope
