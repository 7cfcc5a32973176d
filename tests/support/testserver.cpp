#include "testserver.h"

#include <httplib.h>
#include <thread>

namespace paretoscope::testsupport {

struct TestServer::Impl {
    httplib::Server server;
    std::string body;
    int port = 0;
    std::thread thread;
};

TestServer::TestServer(std::string body)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->body = std::move(body);
    m_impl->server.Get("/api/v1/benchmarks",
        [this](const httplib::Request&, httplib::Response& res) { res.set_content(m_impl->body, "application/json"); });
    m_impl->port = m_impl->server.bind_to_any_port("127.0.0.1");
    m_impl->thread = std::thread([this] { m_impl->server.listen_after_bind(); });
}

TestServer::~TestServer()
{
    m_impl->server.stop();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

int TestServer::port() const
{
    return m_impl->port;
}

std::string TestServer::url(const std::string& path) const
{
    return "http://127.0.0.1:" + std::to_string(m_impl->port) + path;
}

} // namespace paretoscope::testsupport
