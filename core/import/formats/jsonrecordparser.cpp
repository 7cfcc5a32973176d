#include "core/import/formats/jsonrecordparser.h"

#include <cstdio>
#include <simdjson.h>

#include "core/import/formats/fieldnames.h"
#include "core/import/formats/flatrecord.h"

namespace paretoscope {

// The DOM API dispatches at run time to the best kernel of the machine (AVX2 where present); simdjson's on-demand
// API is compiled only for the build's baseline, which on x86-64 is its slow fallback.
struct JsonRecordParser::Impl {
    simdjson::dom::parser parser;
    std::string nestedKey;
    FieldNames keys;

    Result<simdjson::dom::object> open(const JsonElement& el)
    {
        simdjson::dom::element doc;
        if (auto err = parser.parse(el.text.data(), el.text.size(), false).get(doc)) {
            if (err == simdjson::NUMBER_ERROR)
                return Error { "a number is out of range or malformed (" + std::string(simdjson::error_message(err))
                    + ")" };
            if (err == simdjson::DEPTH_ERROR)
                return Error { "nested too deeply" };
            return Error { std::string("not valid JSON: ") + simdjson::error_message(err) };
        }
        simdjson::dom::object obj;
        if (doc.get_object().get(obj))
            return Error { "expected a JSON object (a record), found another kind of value" };
        return obj;
    }

    Status walkObject(simdjson::dom::object obj, std::string_view prefix, RecordMapper& mapper, int depth)
    {
        for (auto [rawKey, val] : obj) {
            std::string_view key = rawKey;
            if (!prefix.empty()) {
                nestedKey.assign(prefix);
                nestedKey += '.';
                nestedKey += rawKey;
                key = nestedKey;
            }
            if (!keys.insert(key))
                return Error { "field '" + std::string(key.substr(0, 200)) + "': given twice in the record" };
            FieldValue fv;
            switch (val.type()) {
            case simdjson::dom::element_type::INT64:
            case simdjson::dom::element_type::UINT64:
            case simdjson::dom::element_type::DOUBLE: {
                double d = 0;
                if (val.get_double().get(d))
                    return Error { "field '" + std::string(key) + "': number out of range" };
                fv.kind = FieldValue::Kind::Number;
                fv.number = d;
                break;
            }
            case simdjson::dom::element_type::STRING:
                fv.kind = FieldValue::Kind::Text;
                fv.text = val.get_string().value_unsafe();
                break;
            case simdjson::dom::element_type::BOOL:
                fv.kind = FieldValue::Kind::Bool;
                fv.boolean = val.get_bool().value_unsafe();
                break;
            case simdjson::dom::element_type::NULL_VALUE:
                fv.kind = FieldValue::Kind::Null;
                break;
            case simdjson::dom::element_type::OBJECT:
                if (mapper.descend(key) && depth < 4) {
                    std::string saved(key);
                    if (auto st = walkObject(val.get_object().value_unsafe(), saved, mapper, depth + 1); !st)
                        return st;
                    continue;
                }
                fv.kind = FieldValue::Kind::Object;
                break;
            case simdjson::dom::element_type::ARRAY:
                fv.kind = FieldValue::Kind::Array;
                break;
            }
            if (auto st = mapper.field(key, fv); !st)
                return st;
        }
        return ok();
    }
};

JsonRecordParser::JsonRecordParser()
    : m_impl(std::make_unique<Impl>())
{
}

JsonRecordParser::~JsonRecordParser() = default;

Result<std::vector<std::string>> JsonRecordParser::keys(const JsonElement& el)
{
    auto obj = m_impl->open(el);
    if (!obj)
        return Error { obj.error() };
    std::vector<std::string> out;
    for (auto [k, v] : *obj)
        out.emplace_back(k);
    return out;
}

Status JsonRecordParser::walk(const JsonElement& el, RecordMapper& mapper)
{
    // a flat record, nearly all of them, in one pass without copies; the rest (and every syntax error) through
    // simdjson, after the mapper is started again
    Status status = ok();
    if (readFlatRecord(el.text, el.capacity, mapper, status))
        return status;
    mapper.begin();
    return walkGeneral(el, mapper);
}

Status JsonRecordParser::walkGeneral(const JsonElement& el, RecordMapper& mapper)
{
    auto obj = m_impl->open(el);
    if (!obj)
        return Error { obj.error() };
    m_impl->keys.clear();
    return m_impl->walkObject(*obj, {}, mapper, 0);
}

} // namespace paretoscope
