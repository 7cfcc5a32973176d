#include "core/import/httpfetch.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include <cerrno>
#include <cstring>

#include <unistd.h>

#include "core/model/urls.h"

namespace paretoscope {
namespace {

// Where a body goes: into memory (httpGet) or into a file (httpDownload, fd >= 0).
struct Sink {
    std::string body;
    const HttpOptions& options;
    void* curl = nullptr;
    int fd = -1;
    std::size_t received = 0;
    bool tooLarge = false;
    bool expanded = false;
    int writeErrno = 0;
};

// What a handle carries (CURLOPT_PRIVATE): the host its redirects may go to, and where one went that was refused.
struct HandleGuard {
    std::string host; // lower case
    bool anyHost = false;
    std::string refused;
};

std::string hostOf(const char* url)
{
    CURLU* u = curl_url();
    std::string out;
    char* host = nullptr;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK
        && curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
        out = host;
    curl_free(host);
    curl_url_cleanup(u);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// Before each request is sent (the first, and each redirect's): a redirect to another host is not followed.
int beforeRequest(void* curl, char*, char*, int, int)
{
    HandleGuard* guard = nullptr;
    curl_easy_getinfo(curl, CURLINFO_PRIVATE, &guard);
    char* url = nullptr;
    curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &url);
    if (!guard || guard->anyHost || !url || hostOf(url) == guard->host)
        return CURL_PREREQFUNC_OK;
    guard->refused = redactUrl(url);
    return CURL_PREREQFUNC_ABORT;
}

bool writeAll(int fd, const char* data, std::size_t bytes)
{
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = ::write(fd, data + done, bytes - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::size_t onData(char* data, std::size_t size, std::size_t n, void* user)
{
    auto* sink = static_cast<Sink*>(user);
    std::size_t bytes = size * n;
    if (sink->received + bytes > sink->options.maxBytes) {
        sink->tooLarge = true;
        return 0; // makes curl stop with CURLE_WRITE_ERROR
    }
    if (expandedTooFar(sink->curl, sink->received + bytes, sink->options)) {
        sink->expanded = true;
        return 0;
    }
    if (sink->fd >= 0) {
        if (!writeAll(sink->fd, data, bytes)) {
            sink->writeErrno = errno ? errno : EIO;
            return 0;
        }
    } else {
        sink->body.append(data, bytes);
    }
    sink->received += bytes;
    return bytes;
}

int onProgress(void* user, curl_off_t, curl_off_t now, curl_off_t, curl_off_t)
{
    auto* opts = static_cast<const HttpOptions*>(user);
    return opts->progress && !opts->progress(static_cast<std::size_t>(now)) ? 1 : 0;
}

} // namespace

void* newCurlHandle(const std::string& url, const HttpOptions& options)
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    CURL* curl = curl_easy_init();
    if (!curl)
        return nullptr;
    auto* guard = new HandleGuard { hostOf(url.c_str()), options.anyHostRedirect, {} };
    curl_easy_setopt(curl, CURLOPT_PRIVATE, guard);
    curl_easy_setopt(curl, CURLOPT_PREREQFUNCTION, beforeRequest);
    curl_easy_setopt(curl, CURLOPT_PREREQDATA, curl);
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMs);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "paretoscope/0.1");
    return curl;
}

void freeCurlHandle(void* curl)
{
    if (!curl)
        return;
    HandleGuard* guard = nullptr;
    curl_easy_getinfo(static_cast<CURL*>(curl), CURLINFO_PRIVATE, &guard);
    curl_easy_cleanup(static_cast<CURL*>(curl));
    delete guard;
}

std::string refusedRedirect(void* curl)
{
    HandleGuard* guard = nullptr;
    curl_easy_getinfo(static_cast<CURL*>(curl), CURLINFO_PRIVATE, &guard);
    return guard ? guard->refused : std::string();
}

bool expandedTooFar(void* curl, std::uint64_t delivered, const HttpOptions& options)
{
    if (delivered <= kExpansionFreeBytes)
        return false;
    curl_off_t came = 0; // the body's bytes as they came, before they were decoded
    curl_easy_getinfo(static_cast<CURL*>(curl), CURLINFO_SIZE_DOWNLOAD_T, &came);
    return static_cast<double>(delivered) > options.maxExpansion * static_cast<double>(std::max<curl_off_t>(came, 1));
}

bool transientHttpStatus(long status)
{
    return status == 429 || (status >= 500 && status <= 599);
}

namespace {

struct Attempt {
    Result<std::string> result = Error { "" };
    bool transient = false;
    long retryAfterSeconds = -1;
};

std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user)
{
    const std::size_t bytes = size * n;
    std::string_view line(data, bytes);
    auto* retryAfter = static_cast<long*>(user);
    if (line.starts_with("HTTP/")) // a new answer (after a redirect): its own Retry-After or none
        *retryAfter = -1;
    constexpr std::string_view key = "retry-after:";
    if (line.size() > key.size()) {
        std::string head(line.substr(0, key.size()));
        for (char& c : head)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (head == key) {
            // seconds; an HTTP date is not read, and the usual delay applies
            const std::string value(line.substr(key.size()));
            char* end = nullptr;
            const long seconds = std::strtol(value.c_str(), &end, 10);
            const bool digits
                = end != value.c_str() && value.find_first_not_of(" \t\r\n", end - value.c_str()) == std::string::npos;
            *retryAfter = digits && seconds >= 0 ? seconds : -1;
        }
    }
    return bytes;
}

Attempt attemptGet(const std::string& fullUrl, const std::string& url, const HttpOptions& options, int fd)
{
    Attempt out;
    CURL* curl = static_cast<CURL*>(newCurlHandle(fullUrl, options));
    if (!curl) {
        out.result = Error { url + ": cannot start libcurl" };
        return out;
    }
    Sink sink { {}, options, curl, fd };
    const long whole
        = options.totalTimeoutMs > 0 && (options.maxTimeMs <= 0 || options.totalTimeoutMs < options.maxTimeMs)
        ? options.totalTimeoutMs
        : options.maxTimeMs;
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, whole);
    if (fd >= 0) { // a body of any size may take long: what fails it is a stall
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, options.stallSeconds);
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onData);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &out.retryAfterSeconds);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &options);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    char errbuf[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_slist* headers = nullptr;
    for (const std::string& h : options.headers)
        headers = curl_slist_append(headers, h.c_str());
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerGuard(headers, curl_slist_free_all);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    const std::string redirected = refusedRedirect(curl);
    freeCurlHandle(curl);

    const std::string what = errbuf[0] ? errbuf : curl_easy_strerror(rc);
    if (sink.writeErrno != 0) {
        out.result = Error { url + ": cannot keep the download: " + std::strerror(sink.writeErrno) };
    } else if (sink.tooLarge) {
        out.result
            = Error { url + ": the answer is larger than " + std::to_string(options.maxBytes >> 20) + " MB; refused" };
    } else if (sink.expanded) {
        out.result = Error { url + ": the compressed answer decodes to more than "
            + std::to_string(static_cast<long long>(options.maxExpansion)) + " times its size: refused" };
    } else if (!redirected.empty()) {
        out.result = Error { url + ": redirected to another host (" + redirected
            + "): not followed; only the URL's own host is" };
    } else if (rc == CURLE_ABORTED_BY_CALLBACK) {
        out.result = Error { url + ": download cancelled" };
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        out.result = Error { url + (sink.received > 0 ? ": the answer stalled or took too long (" : ": timed out (")
            + what + ")" };
        out.transient = true;
    } else if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_PROXY) {
        out.result = Error { url + ": cannot reach the server (offline?): " + what };
        out.transient = rc == CURLE_COULDNT_CONNECT;
    } else if (rc != CURLE_OK) {
        out.result = Error { url + ": " + what };
        out.transient
            = rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_PARTIAL_FILE;
    } else if (status < 200 || status >= 300) {
        out.result = Error { url + ": the server answered HTTP " + std::to_string(status) };
        out.transient = transientHttpStatus(status);
    } else {
        out.result = std::move(sink.body);
    }
    return out;
}

} // namespace

namespace {

Result<std::string> getWithTries(const std::string& fullUrl, const HttpOptions& options, int fd)
{
    const std::string url = redactUrl(fullUrl); // what messages name
    if (!isHttpUrl(fullUrl))
        return Error { url + ": only http and https URLs are accepted" };
    long delayMs = options.retryDelayMs;
    for (int attempt = 1;; ++attempt) {
        if (fd >= 0 && (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0))
            return Error { url + ": cannot reuse the download's file: " + std::strerror(errno) };
        Attempt a = attemptGet(fullUrl, url, options, fd);
        if (a.result || !a.transient || attempt >= options.tries) {
            if (!a.result && attempt > 1)
                return Error { a.result.error() + " (" + std::to_string(attempt) + " tries)" };
            return std::move(a.result);
        }
        const long wait = a.retryAfterSeconds >= 0 ? std::min(a.retryAfterSeconds, 10L) * 1000 : delayMs;
        std::this_thread::sleep_for(std::chrono::milliseconds(wait));
        delayMs *= 2;
    }
}

} // namespace

Result<std::string> httpGet(const std::string& fullUrl, const HttpOptions& options)
{
    return getWithTries(fullUrl, options, -1);
}

Result<std::uint64_t> httpDownload(const std::string& fullUrl, int fd, const HttpOptions& options)
{
    auto got = getWithTries(fullUrl, options, fd);
    if (!got)
        return Error { got.error() };
    const off_t end = ::lseek(fd, 0, SEEK_CUR);
    return static_cast<std::uint64_t>(end < 0 ? 0 : end);
}

} // namespace paretoscope
