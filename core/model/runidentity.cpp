#include "core/model/runidentity.h"

#include <charconv>

namespace paretoscope {

namespace {

constexpr std::int64_t kNumberMask = (std::int64_t(1) << 56) - 1;

std::int64_t ordered(RunKind kind, std::int64_t number)
{
    return (static_cast<std::int64_t>(kind) << 56) | (number & kNumberMask);
}

// The whole number at the start of text (digits only), and the rest after it.
std::optional<std::int64_t> leadingNumber(std::string_view& text)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || v < 0)
        return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return v;
}

} // namespace

std::optional<RunIdentity> workflowRun(std::string_view url)
{
    constexpr std::string_view marker = "/actions/runs/";
    const std::size_t at = url.find(marker);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = url.substr(at + marker.size());
    const auto id = leadingNumber(rest);
    if (!id || *id > kNumberMask / 1000)
        return std::nullopt;
    std::int64_t attempt = 1;
    if (rest.starts_with("/attempts/")) {
        rest.remove_prefix(10);
        const auto n = leadingNumber(rest);
        if (!n || *n < 1 || *n > 999)
            return std::nullopt;
        attempt = *n;
    }
    return RunIdentity { "gh:" + std::to_string(*id) + "/" + std::to_string(attempt),
        ordered(RunKind::InferenceX, *id * 1000 + attempt) };
}

RunKind runKind(std::string_view key)
{
    if (key.starts_with("gh:"))
        return RunKind::InferenceX;
    if (key.starts_with("session:"))
        return RunKind::Session;
    if (key.starts_with("task:"))
        return RunKind::Task;
    return RunKind::Import;
}

std::int64_t runOrder(std::string_view key)
{
    if (key.starts_with("gh:")) {
        std::string_view rest = key.substr(3);
        const auto id = leadingNumber(rest);
        if (id && rest.starts_with('/')) {
            rest.remove_prefix(1);
            if (const auto attempt = leadingNumber(rest); attempt && rest.empty() && *id <= kNumberMask / 1000)
                return ordered(RunKind::InferenceX, *id * 1000 + *attempt % 1000);
        }
        return ordered(RunKind::InferenceX, 0);
    }
    // the import a key names last ("...@import:S", "import:S"): the source it came in with
    std::int64_t source = 0;
    if (const std::size_t at = key.rfind("import:"); at != std::string_view::npos) {
        std::string_view s = key.substr(at + 7);
        source = leadingNumber(s).value_or(0);
    }
    if (key.starts_with("session:")) {
        std::string_view rest = key.substr(8);
        const std::int64_t id = leadingNumber(rest).value_or(0);
        if (rest.empty())
            return ordered(RunKind::Session, id);
        return ordered(RunKind::Import, (source << 16) | (id & 0xffff)); // another store's session, imported here
    }
    if (key.starts_with("task:"))
        return ordered(RunKind::Task, source);
    return ordered(RunKind::Import, source << 16);
}

RunIdentity runIdentity(const RunRecord& r, std::string_view sourcePath, long long sourceId)
{
    const std::string here = "@import:" + std::to_string(sourceId);
    const auto made = [](std::string key) {
        const std::int64_t order = runOrder(key);
        return RunIdentity { std::move(key), order };
    };
    if (!r.run.empty()) {
        const std::string own = r.run.substr(0, r.run.rfind("@import:"));
        if (own.starts_with("gh:") && runOrder(own) != ordered(RunKind::InferenceX, 0))
            return made(own);
        // a cluster task's results, or a session of the store a file was exported from: runs of this import, each
        // told apart by its own name
        if (own.starts_with("task:") || own.starts_with("session:"))
            return made(own + here);
    }
    if (auto run = workflowRun(r.runUrl))
        return *run;
    if (sourcePath.starts_with("session:")) {
        std::string_view id = sourcePath.substr(8);
        if (auto n = leadingNumber(id); n && id.empty())
            return made(std::string(sourcePath));
    }
    return made("import:" + std::to_string(sourceId));
}

std::string runLabel(std::string_view key)
{
    if (key.starts_with("gh:")) {
        std::string_view rest = key.substr(3);
        const std::size_t slash = rest.find('/');
        return "InferenceX run " + std::string(rest.substr(0, slash))
            + (slash == std::string_view::npos ? "" : " (attempt " + std::string(rest.substr(slash + 1)) + ")");
    }
    if (key.starts_with("session:")) {
        const std::size_t at = key.find('@');
        return "live session " + std::string(key.substr(8, at == std::string_view::npos ? key.npos : at - 8))
            + (at == std::string_view::npos ? "" : " (from " + runLabel(key.substr(at + 1)) + ")");
    }
    if (key.starts_with("task:")) {
        std::string_view rest = key.substr(5);
        rest = rest.substr(0, rest.rfind("@import:"));
        const std::size_t hash = rest.rfind('#');
        if (hash != std::string_view::npos)
            return "cluster task " + std::string(rest.substr(hash + 1)) + " of " + std::string(rest.substr(0, hash));
        return "cluster task " + std::string(rest);
    }
    if (key.starts_with("import:"))
        return "import " + std::string(key.substr(7));
    return std::string(key);
}

} // namespace paretoscope
