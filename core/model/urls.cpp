#include "core/model/urls.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace paretoscope {
namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// A parameter name that holds a secret: "api_token", "X-Amz-Signature", "access_key", "password", "sig" ...
bool secretName(std::string_view name)
{
    const std::string n = lower(name);
    constexpr std::array<std::string_view, 8> parts
        = { "token", "key", "secret", "passw", "pwd", "signature", "credential", "auth" };
    for (std::string_view p : parts)
        if (n.find(p) != std::string::npos)
            return true;
    return n == "sig" || n == "code";
}

// "a=1&api_key=2&b" -> "a=1&b"
std::string withoutSecrets(std::string_view params)
{
    std::string out;
    std::size_t from = 0;
    while (from <= params.size()) {
        std::size_t end = params.find('&', from);
        if (end == std::string_view::npos)
            end = params.size();
        const std::string_view param = params.substr(from, end - from);
        const std::string_view name = param.substr(0, param.find('='));
        if (!param.empty() && !secretName(name))
            out += (out.empty() ? "" : "&") + std::string(param);
        from = end + 1;
    }
    return out;
}

// Where the host starts: after the user and password, which end at the last '@' of the URL where that '@' belongs to
// them. A password may hold an unencoded '#', '?' or '/' (curl takes "http://alice:pa#ss@host/"), so the '@' is not
// looked for only before the first of those: the last '@' before the first '/' is theirs; without one, the last '@'
// of the URL is theirs where the text before it has a '/' after "name:" and no port number after the colon
// ("alice:pa/ss@host"). An '@' in a path after a host and port ("host:8080/users/@me") is not.
std::size_t hostStart(const std::string& url, std::size_t authority)
{
    const std::size_t firstSlash = std::min(url.find('/', authority), url.size());
    if (const std::size_t at = url.rfind('@', firstSlash == 0 ? 0 : firstSlash - 1);
        at != std::string::npos && at >= authority && at < firstSlash)
        return at + 1;
    const std::size_t at = url.rfind('@');
    if (at == std::string::npos || at < authority)
        return authority;
    const std::string_view before = std::string_view(url).substr(authority, at - authority);
    const std::size_t slash = before.find('/');
    if (slash == std::string_view::npos)
        return at + 1;
    const std::size_t colon = before.find(':');
    if (colon == std::string_view::npos || colon > slash)
        return authority; // "host/path@x": a path's
    const std::string_view port = before.substr(colon + 1, slash - colon - 1);
    const bool isPort = !port.empty()
        && std::all_of(port.begin(), port.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    return isPort ? authority : at + 1;
}

} // namespace

std::optional<std::string> urlScheme(const std::string& text)
{
    const std::size_t sep = text.find("://");
    if (sep == std::string::npos || sep == 0 || !std::isalpha(static_cast<unsigned char>(text[0])))
        return std::nullopt;
    for (std::size_t i = 1; i < sep; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (!std::isalnum(c) && c != '+' && c != '-' && c != '.')
            return std::nullopt;
    }
    return lower(std::string_view(text).substr(0, sep));
}

bool isHttpUrl(const std::string& text)
{
    const auto scheme = urlScheme(text);
    return scheme && (*scheme == "http" || *scheme == "https");
}

std::string redactUrl(const std::string& url)
{
    if (!urlScheme(url))
        return url;
    const std::size_t authority = url.find("://") + 3;
    const std::size_t host = hostStart(url, authority);
    const std::size_t authorityEnd = std::min(url.find_first_of("/?#", host), url.size());
    std::string out = url.substr(0, authority);
    out += url.substr(host, authorityEnd - host);
    const std::size_t query = url.find('?', authorityEnd);
    const std::size_t fragment = url.find('#', authorityEnd);
    const std::size_t pathEnd = std::min({ query, fragment, url.size() });
    out += url.substr(authorityEnd, pathEnd - authorityEnd);
    if (query != std::string::npos && query < std::min(fragment, url.size())) {
        const std::string kept
            = withoutSecrets(std::string_view(url).substr(query + 1, std::min(fragment, url.size()) - query - 1));
        if (!kept.empty())
            out += "?" + kept;
    }
    if (fragment != std::string::npos) {
        const std::string kept = withoutSecrets(std::string_view(url).substr(fragment + 1));
        if (!kept.empty())
            out += "#" + kept;
    }
    return out;
}

std::string redactUrlsIn(const std::string& text)
{
    std::string out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t sep = text.find("://", from);
        if (sep == std::string::npos)
            break;
        std::size_t start = sep;
        while (start > from
            && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '+'
                || text[start - 1] == '-' || text[start - 1] == '.'))
            --start;
        std::size_t end = sep + 3;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))
            && std::string_view("\"'<>()[]{}`").find(text[end]) == std::string_view::npos)
            ++end;
        out += text.substr(from, start - from);
        out += start < sep ? redactUrl(text.substr(start, end - start)) : text.substr(start, end - start);
        from = end;
    }
    return out + text.substr(from);
}

} // namespace paretoscope
