#include "httpfetch.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

#include "urls.h"

namespace paretoscope {
namespace {

struct Sink {
    std::string body;
    std::size_t maxBytes;
    bool tooLarge = false;
};

std::size_t onData(char* data, std::size_t size, std::size_t n, void* user)
{
    auto* sink = static_cast<Sink*>(user);
    std::size_t bytes = size * n;
    if (sink->body.size() + bytes > sink->maxBytes) {
        sink->tooLarge = true;
        return 0; // makes curl stop with CURLE_WRITE_ERROR
    }
    sink->body.append(data, bytes);
    return bytes;
}

int onProgress(void* user, curl_off_t, curl_off_t now, curl_off_t, curl_off_t)
{
    auto* opts = static_cast<const HttpOptions*>(user);
    return opts->progress && !opts->progress(static_cast<std::size_t>(now)) ? 1 : 0;
}

} // namespace

Result<std::string> httpGet(const std::string& fullUrl, const HttpOptions& options)
{
    const std::string url = redactUrl(fullUrl); // what messages name
    if (!isHttpUrl(fullUrl))
        return Error { url + ": only http and https URLs are accepted" };
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });

    CURL* curl = curl_easy_init();
    if (!curl)
        return Error { url + ": cannot start libcurl" };
    Sink sink { {}, options.maxBytes };
    curl_easy_setopt(curl, CURLOPT_URL, fullUrl.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMs);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options.totalTimeoutMs);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "paretoscope/0.1");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onData);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
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
    curl_easy_cleanup(curl);

    if (sink.tooLarge)
        return Error { url + ": the answer is larger than " + std::to_string(options.maxBytes >> 20) + " MB; refused" };
    if (rc == CURLE_ABORTED_BY_CALLBACK)
        return Error { url + ": download cancelled" };
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return Error { url + ": timed out (" + std::string(errbuf[0] ? errbuf : curl_easy_strerror(rc)) + ")" };
    if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_PROXY)
        return Error { url
            + ": cannot reach the server (offline?): " + std::string(errbuf[0] ? errbuf : curl_easy_strerror(rc)) };
    if (rc != CURLE_OK)
        return Error { url + ": " + std::string(errbuf[0] ? errbuf : curl_easy_strerror(rc)) };
    if (status < 200 || status >= 300)
        return Error { url + ": the server answered HTTP " + std::to_string(status) };
    return std::move(sink.body);
}

} // namespace paretoscope
