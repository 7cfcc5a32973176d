#include "core/import/httpsource.h"

#include <curl/curl.h>

#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>

#include "core/model/urls.h"

namespace paretoscope {

struct HttpSource::State {
    std::string url;
    std::string name; // without credentials
    HttpOptions options;
    CURL* curl = nullptr;
    curl_slist* headers = nullptr;
    char curlError[CURL_ERROR_SIZE] = {};

    std::mutex mutex;
    std::condition_variable cv;
    std::deque<std::string> chunks;
    std::size_t front = 0; // bytes of chunks.front() already read
    std::size_t buffered = 0;
    std::uint64_t received = 0;
    std::uint64_t declared = 0;
    std::uint64_t headerLength = 0; // the last Content-Length header seen (of the final answer when it matters)
    bool headersDone = false;
    bool finished = false;
    bool stopping = false;
    std::string error; // set before finished when the download failed
    std::thread thread;

    ~State()
    {
        curl_slist_free_all(headers);
        freeCurlHandle(curl);
    }

    std::string sizeText(std::uint64_t bytes) const
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
        return buf;
    }

    void fail(std::string message)
    {
        if (error.empty())
            error = std::move(message);
    }

    // The end of a block of headers: the final answer's status and declared length decide whether to read on.
    bool onHeadersDone()
    {
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        if (status < 200 || (status >= 300 && status < 400))
            return true; // 100 Continue, or a redirect that libcurl follows: more headers come
        curl_off_t length = -1;
        curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
        std::lock_guard lock(mutex);
        headersDone = true;
        cv.notify_all();
        if (status >= 400) {
            fail(name + ": the server answered HTTP " + std::to_string(status));
            return false;
        }
        if (length > 0) {
            declared = static_cast<std::uint64_t>(length);
            if (declared > options.maxBytes) {
                fail(name + ": the answer declares " + sizeText(declared) + ", more than the limit of "
                    + sizeText(options.maxBytes) + "; refused before reading it");
                return false;
            }
        }
        return true;
    }

    static std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user)
    {
        auto* s = static_cast<State*>(user);
        const std::size_t bytes = size * n;
        constexpr std::string_view key = "content-length:";
        if (bytes > key.size()) {
            std::string head(data, key.size());
            for (char& c : head)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (head == key)
                s->headerLength
                    = std::strtoull(std::string(data + key.size(), bytes - key.size()).c_str(), nullptr, 10);
        }
        if ((bytes == 2 && data[0] == '\r' && data[1] == '\n') || (bytes == 1 && data[0] == '\n'))
            return s->onHeadersDone() ? bytes : 0;
        return bytes;
    }

    // Called by libcurl at least once a second, data or not: a source being destroyed stops a transfer that waits on
    // a silent server at once.
    static int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
    {
        auto* s = static_cast<State*>(user);
        std::lock_guard lock(s->mutex);
        return s->stopping ? 1 : 0;
    }

    static std::size_t onData(char* data, std::size_t size, std::size_t n, void* user)
    {
        auto* s = static_cast<State*>(user);
        const std::size_t bytes = size * n;
        std::unique_lock lock(s->mutex);
        if (s->received + bytes > s->options.maxBytes) {
            s->fail(
                s->name + ": the answer is larger than the limit of " + s->sizeText(s->options.maxBytes) + "; refused");
            return 0;
        }
        if (expandedTooFar(s->curl, s->received + bytes, s->options)) {
            s->fail(s->name + ": the compressed answer decodes to more than "
                + std::to_string(static_cast<long long>(s->options.maxExpansion)) + " times its size: refused");
            return 0;
        }
        // the reader takes the body as fast as the import goes; until then the download waits here
        s->cv.wait(lock, [&] { return s->stopping || s->buffered == 0 || s->buffered + bytes <= kBufferBytes; });
        if (s->stopping)
            return 0;
        s->chunks.emplace_back(data, bytes);
        s->buffered += bytes;
        s->received += bytes;
        s->cv.notify_all();
        return bytes;
    }

    void run()
    {
        const CURLcode rc = curl_easy_perform(curl);
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        std::lock_guard lock(mutex);
        if (rc != CURLE_OK && !stopping) {
            const std::string what = curlError[0] ? curlError : curl_easy_strerror(rc);
            if (const std::string redirected = refusedRedirect(curl); !redirected.empty())
                fail(name + ": redirected to another host (" + redirected
                    + "): not followed; only the URL's own host is");
            else if (rc == CURLE_OPERATION_TIMEDOUT)
                fail(name + ": timed out (" + what + ")");
            else if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT
                || rc == CURLE_COULDNT_RESOLVE_PROXY)
                fail(name + ": cannot reach the server (offline?): " + what);
            else if (rc == CURLE_FILESIZE_EXCEEDED && headerLength > options.maxBytes) {
                // libcurl refuses a declared length over CURLOPT_MAXFILESIZE before the body comes
                fail(name + ": the answer declares " + sizeText(headerLength) + ", more than the limit of "
                    + sizeText(options.maxBytes) + "; refused before reading it");
            } else if (rc == CURLE_FILESIZE_EXCEEDED) {
                fail(name + ": the answer is larger than the limit of " + sizeText(options.maxBytes) + "; refused");
            } else
                fail(name + ": the download failed: " + what);
        } else if (rc == CURLE_OK && (status < 200 || status >= 300)) {
            fail(name + ": the server answered HTTP " + std::to_string(status));
        }
        finished = true;
        headersDone = true;
        cv.notify_all();
    }
};

Result<std::unique_ptr<HttpSource>> HttpSource::open(const std::string& url, const HttpOptions& options)
{
    const std::string name = redactUrl(url);
    if (!isHttpUrl(url))
        return Error { name + ": only http and https URLs are accepted" };
    auto s = std::make_unique<State>();
    s->url = url;
    s->name = name;
    s->options = options;
    s->curl = static_cast<CURL*>(newCurlHandle(url, options));
    if (!s->curl)
        return Error { name + ": cannot start libcurl" };
    CURL* c = s->curl;
    // a body may take long: what fails it is a stall, or a whole that takes longer than options.maxTimeMs
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, options.maxTimeMs);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.stallSeconds));
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.maxBytes));
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &State::onHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, s.get());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &State::onData);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, s.get());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->curlError);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &State::onProgress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, s.get());
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    for (const std::string& h : options.headers)
        s->headers = curl_slist_append(s->headers, h.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, s->headers);
    State* state = s.get();
    s->thread = std::thread([state] { state->run(); });
    std::unique_ptr<HttpSource> source(new HttpSource(std::move(s)));
    {
        std::unique_lock lock(state->mutex);
        const auto headersDue = std::chrono::steady_clock::now()
            + std::chrono::milliseconds(options.totalTimeoutMs > 0 ? options.totalTimeoutMs : 600000);
        if (!state->cv.wait_until(lock, headersDue, [&] { return state->headersDone; }))
            return Error { name + ": no answer from the server within " + std::to_string(options.totalTimeoutMs / 1000)
                + " s" };
        if (state->finished && !state->error.empty())
            return Error { state->error };
        if (!state->error.empty() && state->buffered == 0)
            return Error { state->error };
    }
    return source;
}

HttpSource::HttpSource(std::unique_ptr<State> state)
    : m_state(std::move(state))
{
}

HttpSource::~HttpSource()
{
    {
        std::lock_guard lock(m_state->mutex);
        m_state->stopping = true;
        m_state->cv.notify_all();
    }
    if (m_state->thread.joinable())
        m_state->thread.join();
}

Result<std::size_t> HttpSource::read(char* dst, std::size_t n)
{
    State& s = *m_state;
    std::unique_lock lock(s.mutex);
    s.cv.wait(lock, [&] { return !s.chunks.empty() || s.finished; });
    std::size_t done = 0;
    while (done < n && !s.chunks.empty()) {
        std::string& chunk = s.chunks.front();
        const std::size_t take = std::min(n - done, chunk.size() - s.front);
        std::memcpy(dst + done, chunk.data() + s.front, take); // NOLINT(bugprone-not-null-terminated-result): bytes
        done += take;
        s.front += take;
        s.buffered -= take;
        if (s.front == chunk.size()) {
            s.chunks.pop_front();
            s.front = 0;
        }
    }
    s.cv.notify_all();
    if (done == 0 && !s.error.empty())
        return Error { s.error };
    return done;
}

std::uint64_t HttpSource::size() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->declared;
}

const std::string& HttpSource::name() const
{
    return m_state->name;
}

} // namespace paretoscope
