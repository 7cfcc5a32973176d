#include "flatcheck.h"

#include <bit>
#include <cstdio>

#include "core/documentstream.h"
#include "core/formats/flatrecord.h"
#include "core/formats/jsonrecordparser.h"

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

} // namespace

std::string flatRecordMismatch(std::string_view record, bool* tookFlat)
{
    constexpr std::size_t kPadding = 64; // readable past the end, as the record splitter leaves it
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
    if (!took)
        return {};
    if (!generalStatus.ok() && generalStatus.error() != "field 'refuse': refused")
        return "the flat reader took a record simdjson refuses (" + generalStatus.error() + ")";
    if (flat.log != general.log)
        return "fields differ: flat [" + flat.log + "], simdjson [" + general.log + "]";
    if (flatStatus.ok() != generalStatus.ok())
        return "the mapper's outcome differs";
    return {};
}

} // namespace paretoscope::fuzz
