#include "core/model/precision.h"

namespace paretoscope {

std::optional<std::string> defaultViewPrecision(const std::set<std::string>& precisions)
{
    if (precisions.size() < 2)
        return std::nullopt;
    const std::string preferred(kDefaultPrecision);
    return precisions.count(preferred) ? preferred : *precisions.begin();
}

} // namespace paretoscope
