#include "core/model/outsidejson.h"

#include <utility>
#include <vector>

namespace paretoscope {

using nlohmann::json;

int jsonNestingDepth(std::string_view text, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

namespace {

// Builds the document as nlohmann's own DOM parser does, and refuses a key given twice in one object. Not nlohmann's
// callback parser: after every object it searches the whole enclosing array for a discarded element, so an array of
// n objects took n^2 / 2 steps (100,000 availability rows 5 s, 200,000 15.6 s, 1,000,000 unfinished after 190 s).
// Here each value is placed once; a key is looked up in its object's map once.
class CheckedDomBuilder {
public:
    json root;
    std::string twice; ///< the first key given twice in one object

    bool null() { return place(nullptr); }
    bool boolean(bool v) { return place(v); }
    bool number_integer(json::number_integer_t v) { return place(v); }
    bool number_unsigned(json::number_unsigned_t v) { return place(v); }
    bool number_float(json::number_float_t v, const json::string_t&) { return place(v); }
    bool string(json::string_t& v) { return place(std::move(v)); }
    bool binary(json::binary_t& v) { return place(json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k)
    {
        json& object = *m_open.back();
        if (object.contains(k) && twice.empty())
            twice = k;
        m_member = &object[k];
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
    std::vector<json*> m_open; // the arrays and objects not yet closed; an open one's parent takes nothing new
    json* m_member = nullptr; // the member the last key named

    template <typename Value> json* put(Value&& v)
    {
        if (m_open.empty()) {
            root = json(std::forward<Value>(v));
            return &root;
        }
        json& parent = *m_open.back();
        if (parent.is_array()) {
            parent.emplace_back(std::forward<Value>(v));
            return &parent.back();
        }
        *m_member = json(std::forward<Value>(v));
        return m_member;
    }
    template <typename Value> bool place(Value&& v)
    {
        put(std::forward<Value>(v));
        return true;
    }
    bool open(json::value_t type)
    {
        m_open.push_back(put(type));
        return true;
    }
    bool close()
    {
        m_open.pop_back();
        return true;
    }
};

} // namespace

Result<json> parseOutsideJson(std::string_view text, const std::string& name, int maxDepth)
{
    if (jsonNestingDepth(text, maxDepth) > maxDepth)
        return Error { name + ": nested deeper than " + std::to_string(maxDepth) + " levels: refused" };
    CheckedDomBuilder builder;
    if (!json::sax_parse(text, &builder))
        return Error { name + ": not valid JSON" };
    if (!builder.twice.empty())
        return Error { name + ": the key \"" + builder.twice + "\" is given twice in one object" };
    return std::move(builder.root);
}

std::string jsonText(const json& value, int indent)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace paretoscope
