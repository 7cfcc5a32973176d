#pragma once

#include <optional>
#include <string>

namespace paretoscope {

/// The scheme of a text that looks like a URL ("scheme://..."), lower case; empty when it does not look like one.
std::optional<std::string> urlScheme(const std::string& text);

/// Whether the text is an http:// or https:// URL (the scheme in any case, as URLs allow).
bool isHttpUrl(const std::string& text);

/// The URL without its credentials, as it may be stored, printed and exported: no user or password before the host,
/// and no query or fragment parameter named like a secret (token, key, secret, password, signature, credential,
/// auth, sig). Text that is not a URL comes back unchanged.
std::string redactUrl(const std::string& url);

/// Free text (a message, a note, JSON) with every URL in it redacted as redactUrl does; a URL ends at white space, a
/// quote, a bracket or a parenthesis.
std::string redactUrlsIn(const std::string& text);

} // namespace paretoscope
