#include "flatcheck.h"

#include <bit>
#include <cstdio>

#include "core/import/documentstream.h"
#include "core/import/formats/flatrecord.h"
#include "core/import/formats/jsonrecordparser.h"

namespace paretoscope::fuzz {
namespace {

class RecordingMapper final : public RecordMapper {
public:
    std::string log;
    void begin() override { log.clear(); }
    Status field(std::string_view key, const FieldValue& v) override
    {
        log += key;
        char buf[64];
        switch (v.kind) {
        case FieldValue::Kind::Number:
            std::snprintf(
                buf, sizeof buf, "=n%016llx;", static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v.number)));
            log += buf;
            break;
        case FieldValue::Kind::Text:
            log += "=s" + std::string(v.text) + ";";
            break;
        case FieldValue::Kind::Bool:
            log += v.boolean ? "=true;" : "=false;";
            break;
        case FieldValue::Kind::Null:
            log += "=null;";
            break;
        default:
            log += "=" + v.kindName() + ";";
            break;
        }
        if (key == "refuse")
            return Error { "field 'refuse': refused" };
        return ok();
    }
    Result<RunRecord> finish() override { return RunRecord {}; }
};

// A refusal both readers must give alike: the mapper's, or a key given twice (docs/formats.md)
bool refusedAlike(const Status& st)
{
    return st.error() == "field 'refuse': refused" || st.error().ends_with("': given twice in the record");
}

constexpr std::size_t kPadding = 64; // readable past the end, as the record splitter leaves it

// The record read as the start of a longer text, as the splitter offers it (readFlatRecordPrefix): what it takes
// must be an object simdjson reads alike, and a record the whole-text reader took (its fields in `wholeLog`) must be
// taken with the same fields, ending at its closing brace.
std::string prefixRecordMismatch(std::string_view record, const std::string* wholeLog)
{
    const std::string next = ",{\"next\": 1}";
    std::string buffer = std::string(record) + next;
    const std::size_t textSize = buffer.size();
    buffer.append(kPadding, ' ');
    RecordingMapper prefix;
    prefix.begin();
    Status status = ok();
    std::size_t length = 0;
    const bool took
        = readFlatRecordPrefix(std::string_view(buffer.data(), textSize), buffer.size(), prefix, status, length);
    if (wholeLog) {
        const std::size_t end = record.find_last_not_of(" \t\r\n") + 1;
        if (!took)
            return "the prefix reader declined a record the whole-text reader took";
        if (length != end)
            return "the prefix reader ends the record at " + std::to_string(length) + ", not " + std::to_string(end);
        if (prefix.log != *wholeLog)
            return "the prefix reader's fields differ: [" + prefix.log + "], whole [" + *wholeLog + "]";
    }
    if (!took)
        return {};
    if (length == 0 || length > textSize || buffer[length - 1] != '}')
        return "the prefix reader's length " + std::to_string(length) + " does not end at a '}'";
    JsonElement el;
    el.text = std::string_view(buffer.data(), length);
    el.capacity = buffer.size();
    RecordingMapper general;
    general.begin();
    JsonRecordParser parser;
    const Status generalStatus = parser.walkGeneral(el, general);
    if (!generalStatus.ok() && !refusedAlike(generalStatus))
        return "the prefix reader took an object simdjson refuses (" + generalStatus.error() + ")";
    if (status.ok() != generalStatus.ok() || (!status.ok() && status.error() != generalStatus.error()))
        return "the prefix reader's outcome differs";
    if (prefix.log != general.log)
        return "prefix fields differ: [" + prefix.log + "], simdjson [" + general.log + "]";
    return {};
}

} // namespace

std::string flatRecordMismatch(std::string_view record, bool* tookFlat)
{
    std::string buffer(record);
    buffer.append(kPadding, ' ');
    JsonElement el;
    el.text = std::string_view(buffer.data(), record.size());
    el.capacity = buffer.size();

    RecordingMapper flat, general;
    Status flatStatus = ok();
    flat.begin();
    const bool took = readFlatRecord(el.text, el.capacity, flat, flatStatus);
    if (tookFlat)
        *tookFlat = took;
    JsonRecordParser parser;
    general.begin();
    const Status generalStatus = parser.walkGeneral(el, general);
    if (auto prefixMismatch = prefixRecordMismatch(record, took ? &flat.log : nullptr); !prefixMismatch.empty())
        return prefixMismatch;
    if (!took)
        return {};
    if (!generalStatus.ok() && !refusedAlike(generalStatus))
        return "the flat reader took a record simdjson refuses (" + generalStatus.error() + ")";
    if (flat.log != general.log)
        return "fields differ: flat [" + flat.log + "], simdjson [" + general.log + "]";
    if (flatStatus.ok() != generalStatus.ok() || (!flatStatus.ok() && flatStatus.error() != generalStatus.error()))
        return "the mapper's outcome differs";
    return {};
}

} // namespace paretoscope::fuzz
