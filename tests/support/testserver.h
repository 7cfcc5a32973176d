#pragma once

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

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace paretoscope::testsupport
