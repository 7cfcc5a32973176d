#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/import/bytesource.h"
#include "core/import/httpfetch.h"
#include "core/model/result.h"

namespace paretoscope {

/// An http(s) answer's body read while it downloads. libcurl runs on a thread of its own and hands the body over
/// through a bounded buffer (kBufferBytes), so memory stays small whatever the body's size. open() returns once the
/// status and the declared length are known: an error status, or a declared length over the limit, is refused
/// before any of the body is read. Its name is the URL without credentials (redactUrl).
class HttpSource final : public ByteSource {
public:
    static constexpr std::size_t kBufferBytes = 4u << 20;
    /// Starts the download; options.maxBytes limits the body (declared or received), options.totalTimeoutMs the
    /// wait for the answer's headers (0: none); a body that stalls for options.stallSeconds fails.
    static Result<std::unique_ptr<HttpSource>> open(const std::string& url, const HttpOptions& options);
    ~HttpSource() override; ///< stops the download wherever it is
    HttpSource(const HttpSource&) = delete;
    HttpSource& operator=(const HttpSource&) = delete;

    Result<std::size_t> read(char* dst, std::size_t n) override;
    /// The length the server declared, 0 when it did not.
    std::uint64_t size() const override;
    const std::string& name() const override;

private:
    struct State;
    explicit HttpSource(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

} // namespace paretoscope
