#include "testserver.h"

#include <httplib.h>
#include <zlib.h>

#include "jsonanswer.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

namespace paretoscope::testsupport {

struct TestServer::Impl {
    httplib::Server server;
    std::string body;
    int port = 0;
    std::thread thread;
    std::atomic<std::uint64_t> sent { 0 };
};

TestServer::TestServer(std::string body)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->body = std::move(body);
    m_impl->server.Get("/api/v1/benchmarks",
        [this](const httplib::Request& req, httplib::Response& res) { setJsonAnswer(req, res, m_impl->body); });
    m_impl->port = m_impl->server.bind_to_any_port("127.0.0.1");
    m_impl->thread = std::thread([this] { m_impl->server.listen_after_bind(); });
}

TestServer::~TestServer()
{
    m_impl->server.stop();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

void TestServer::serveFile(const std::string& path, const std::string& file)
{
    m_impl->server.Get(path, [this, file](const httplib::Request&, httplib::Response& res) {
        std::error_code ec;
        const auto size = static_cast<std::size_t>(std::filesystem::file_size(file, ec));
        auto in = std::make_shared<std::ifstream>(file, std::ios::binary);
        res.set_content_provider(
            size, "application/json", [this, in](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                std::vector<char> buf(std::min<std::size_t>(length, 1 << 20));
                in->seekg(static_cast<std::streamoff>(offset));
                in->read(buf.data(), static_cast<std::streamsize>(buf.size()));
                const auto got = static_cast<std::size_t>(in->gcount());
                m_impl->sent += got;
                return got > 0 && sink.write(buf.data(), got);
            });
    });
}

void TestServer::serveDeclared(const std::string& path, std::uint64_t declaredBytes)
{
    m_impl->server.Get(path, [this, declaredBytes](const httplib::Request&, httplib::Response& res) {
        res.set_content_provider(static_cast<std::size_t>(declaredBytes), "application/json",
            [this](std::size_t, std::size_t, httplib::DataSink& sink) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                m_impl->sent += 1;
                return sink.write("[", 1);
            });
    });
}

void TestServer::serveEncoded(const std::string& path, std::string bytes, const std::string& contentEncoding)
{
    auto body = std::make_shared<std::string>(std::move(bytes));
    m_impl->server.Get(path, [body, contentEncoding](const httplib::Request&, httplib::Response& res) {
        res.set_header("Content-Encoding", contentEncoding);
        res.set_content(*body, "application/octet-stream"); // a type httplib does not compress again
    });
}

void TestServer::redirect(const std::string& path, const std::string& location)
{
    m_impl->server.Get(
        path, [location](const httplib::Request&, httplib::Response& res) { res.set_redirect(location); });
}

std::string gzipped(const std::string& text)
{
    z_stream z {};
    deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY); // 15 + 16: a gzip header
    std::string out(deflateBound(&z, text.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::uint64_t TestServer::bytesSent() const
{
    return m_impl->sent.load();
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
