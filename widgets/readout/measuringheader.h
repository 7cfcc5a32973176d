#pragma once

#include <QHeaderView>
#include <algorithm>

namespace paretoscope::ui {

/// A header that measures a hidden section too: QHeaderView::sectionSizeHint gives a hidden one no width, and J/token
/// measured hidden came back at its cells' width, its title cut ("ok (all-i"). The readout's table has one
/// (ReadoutPanel::buildLayout) and measures its columns with it (readoutsizes.cpp).
class MeasuringHeader : public QHeaderView {
public:
    using QHeaderView::QHeaderView;
    int titleWidth(int logical) const
    {
        return std::max(minimumSectionSize(), sectionSizeFromContents(logical).width());
    }
};

} // namespace paretoscope::ui
