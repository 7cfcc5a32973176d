#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// Limits of one HTTP GET.
struct HttpOptions {
    long connectTimeoutMs = 10000;
    long totalTimeoutMs = 120000;
    std::size_t maxBytes = 512u << 20; ///< a larger body is cut off with an error
    long stallSeconds = 60; ///< a streamed body (HttpSource) that brings nothing for this long fails
    std::function<bool(std::size_t received)> progress; ///< returning false cancels
    std::vector<std::string> headers; ///< extra request headers ("Name: value")
    /// Tries of httpGet: a failure that may pass (HTTP 429 or 5xx, no connection, a timeout) is tried again after
    /// retryDelayMs, doubling each time, or after the server's Retry-After (up to 10 s).
    int tries = 1;
    long retryDelayMs = 500;
    /// The whole request, body included: a server that trickles its body (a byte a second defeats the stall check)
    /// ends here. 0: no bound. `paretoscope-cli sync --max-time` sets it.
    long maxTimeMs = 600000;
    /// A compressed body (gzip, br, zstd) may decode to at most this many times the bytes that came, once it is past
    /// kExpansionFreeBytes: a small bomb cannot fill the disk.
    double maxExpansion = 100;
    /// Redirects are followed to the URL's own host only (any scheme or port of it); true follows them anywhere.
    bool anyHostRedirect = false;
};

/// What a compressed body may decode to whatever its ratio (JSON compresses 10 to 30 times).
inline constexpr std::uint64_t kExpansionFreeBytes = 16u << 20;

/// A libcurl easy handle (a CURL*) for the URL with what every request of Paretoscope shares: http and https only,
/// redirects (five, to http and https, to the URL's host unless options.anyHostRedirect), no signals, the connect
/// timeout, compression, the user agent. nullptr when libcurl cannot start. For httpGet and HttpSource, which free
/// it with freeCurlHandle.
void* newCurlHandle(const std::string& url, const HttpOptions& options);
void freeCurlHandle(void* curl);
/// Where a handle's request was redirected to and not followed (another host), redacted; empty when none was.
std::string refusedRedirect(void* curl);
/// Whether a body that has decoded to `delivered` bytes has expanded past options.maxExpansion times what came.
bool expandedTooFar(void* curl, std::uint64_t delivered, const HttpOptions& options);

/// Whether an HTTP status may pass on a later try: 429 (too many requests) and 5xx.
bool transientHttpStatus(long status);

/// GETs an http(s) URL through libcurl and returns the body of a 2xx answer, for small answers (a model list);
/// large bodies stream through HttpSource. Other schemes are refused; redirects are followed only to http(s).
/// Errors say what failed (offline, timeout, HTTP status) and name the URL without its credentials.
Result<std::string> httpGet(const std::string& url, const HttpOptions& options);

/// GETs an http(s) URL as httpGet does (tries, Retry-After, errors), writing the body into an open file from its
/// start: each try starts the file again. A body that brings nothing for options.stallSeconds fails (and may be tried
/// again); options.totalTimeoutMs 0 sets no limit on the whole. Returns the body's length.
Result<std::uint64_t> httpDownload(const std::string& url, int fd, const HttpOptions& options);

} // namespace paretoscope
