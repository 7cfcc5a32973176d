#include "core/model/fieldvalue.h"

namespace paretoscope {

std::string FieldValue::kindName() const
{
    switch (kind) {
    case Kind::Null:
        return "null";
    case Kind::Bool:
        return boolean ? "true" : "false";
    case Kind::Number:
        return "a number";
    case Kind::Text:
        return "a string";
    case Kind::Array:
        return "an array";
    case Kind::Object:
        return "an object";
    }
    return "a value";
}

} // namespace paretoscope
