// TimelineRenderer's slice colours: by category (a string id's colour, cached), by name
// or dtype (the timeline's Colour By), device ranges by their name without its numbers.
#include "views/timeline/timeline_renderer.h"

#include "views/timeline/timeline_palette.h"

namespace npu::views {

const QColor& TimelineRenderer::colorOf(std::int32_t categoryId)
{
    static const QColor fallback = categoryColor("other");
    if (categoryId < 0 || static_cast<std::size_t>(categoryId) >= m_colors.size())
        return fallback;
    const auto i = static_cast<std::size_t>(categoryId);
    if (!m_colorReady[i]) {
        m_colors[i] = categoryColor(m_data->string(categoryId));
        m_colorReady[i] = 1;
    }
    return m_colors[i];
}

bool TimelineRenderer::isRangeCategory(std::int32_t categoryId)
{
    if (m_rangeCategory == -2) {  // the string id of Kineto's device ranges, once per data
        m_rangeCategory = -1;
        for (std::size_t i = 0; i < m_data->strings().size(); ++i)
            if (m_data->strings()[i] == "gpu_user_annotation") m_rangeCategory = static_cast<std::int32_t>(i);
    }
    return categoryId >= 0 && categoryId == m_rangeCategory;
}

const QColor& TimelineRenderer::rangeColorOf(std::int32_t nameId)
{
    // Ranges (a simulated run's step > phase > layer, a trace's record_function on the
    // device) coloured by what they are, as Perfetto colours by name; the numbers are
    // left out, so every forward pass shares a colour, every backward another, the layers
    // a third, rather than all ranges the one colour of their category.
    if (nameId < 0 || static_cast<std::size_t>(nameId) >= m_rangeColors.size()) {
        m_rangeColors.resize(m_data->strings().size());
        m_rangeColorReady.resize(m_data->strings().size(), 0);
    }
    if (nameId < 0 || static_cast<std::size_t>(nameId) >= m_rangeColors.size()) return colorOf(-1);
    const auto i = static_cast<std::size_t>(nameId);
    if (!m_rangeColorReady[i]) {
        std::string key;
        for (const char c : m_data->string(nameId))
            if (c < '0' || c > '9') key += c;
        m_rangeColors[i] = categoryColor(key);
        m_rangeColorReady[i] = 1;
    }
    return m_rangeColors[i];
}

QColor TimelineRenderer::sliceColor(SliceColouring colouring, const TimelineTrack& track, std::uint32_t slice)
{
    switch (colouring) {
    case SliceColouring::category:
        if (isRangeCategory(track.slices.categoryId[slice])) return rangeColorOf(track.slices.nameId[slice]);
        break;
    case SliceColouring::name: return colorOf(track.slices.nameId[slice]);  // the same hash palette, keyed by name
    case SliceColouring::dtype:
        return dtypeColor(slice < track.dtypeId.size() && track.dtypeId[slice] >= 0 ? std::string_view(m_data->string(track.dtypeId[slice]))
                                                                                    : std::string_view());
    }
    return colorOf(track.slices.categoryId[slice]);
}

}  // namespace npu::views
