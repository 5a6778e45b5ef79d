#include "editor/Selection.h"

namespace rdt::editor {

SubjectIndex::SubjectIndex(const core::Design& design) : m_design(&design)
{
    m_ids.reserve(design.racks.size() * 8);
    for (std::size_t r = 0; r < design.racks.size(); ++r) {
        const core::Rack& rack = design.racks[r];
        m_ids.emplace(rack.id, SubjectRef{static_cast<int>(r), -1, false});
        for (std::size_t s = 0; s < rack.slots.size(); ++s)
            m_ids.emplace(rack.slots[s].id, SubjectRef{static_cast<int>(r), static_cast<int>(s), false});
    }
}

SubjectRef SubjectIndex::resolve(const std::string& id) const
{
    if (id == "site")
        return SubjectRef{-1, -1, true};
    const auto it = m_ids.find(id);
    return it == m_ids.end() ? SubjectRef{} : it->second;
}

std::string SubjectIndex::idOf(int rack, int slot) const
{
    if (rack < 0 || rack >= static_cast<int>(m_design->racks.size()))
        return {};
    const core::Rack& r = m_design->racks[static_cast<std::size_t>(rack)];
    if (slot < 0 || slot >= static_cast<int>(r.slots.size()))
        return r.id;
    return r.slots[static_cast<std::size_t>(slot)].id;
}

bool Selection::select(const std::string& id)
{
    if (id == m_id)
        return false;
    m_id = id;
    return true;
}

} // namespace rdt::editor
