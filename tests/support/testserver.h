#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace paretoscope::testsupport {

/// A small HTTP server on 127.0.0.1 (an ephemeral port) that serves one body at /api/v1/benchmarks and answers 404
/// elsewhere; for testing import by URL without the network.
class TestServer {
public:
    explicit TestServer(std::string body);
    ~TestServer();
    int port() const;
    std::string url(const std::string& path) const;
    /// Serves a file's bytes at `path`, read from disk as they are sent (its length declared).
    void serveFile(const std::string& path, const std::string& file);
    /// Answers `path` declaring a body of `declaredBytes` and then sending a few bytes at a time, slowly: for
    /// checking that a declared length over the limit is refused before the body is read.
    void serveDeclared(const std::string& path, std::uint64_t declaredBytes);
    /// Answers `path` with these bytes as they are, declaring the Content-Encoding given (gzip: a body the test
    /// compressed, a bomb say); the server compresses nothing of its own.
    void serveEncoded(const std::string& path, std::string bytes, const std::string& contentEncoding);
    /// Answers `path` with a 302 redirect to `location`.
    void redirect(const std::string& path, const std::string& location);
    /// How many bytes the routes of serveFile and serveDeclared have sent.
    std::uint64_t bytesSent() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The gzip stream of a text (zlib), for serveEncoded.
std::string gzipped(const std::string& text);

} // namespace paretoscope::testsupport
