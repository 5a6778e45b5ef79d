#include "signal/PortBudget.h"

#include <cmath>
#include <map>

#include "signal/LinkAnalysis.h"

namespace rdt::signal {

namespace {

struct Tally {
    const core::Rack* rack = nullptr;
    const core::Slot* slot = nullptr;
    int used = 0, down = 0, up = 0;
    double downGbps = 0, upGbps = 0;
    std::map<std::string, int> byClass;
};

/// A chassis' external ports: its catalogued interfaces, else its NICs' ports; 0 when the
/// catalog states neither (the rule then says "not checked").
int chassisPorts(const core::Design& d, const core::Part& part)
{
    if (!part.interfaces.empty())
        return static_cast<int>(part.interfaces.size());
    if (const core::Part* nic = d.catalog->find(part.text("nics.part")))
        return static_cast<int>(part.value("nics.count", 0) * nic->value("ports", 1));
    return 0;
}

} // namespace

std::vector<PartPorts> portBudget(const core::Design& d, const std::vector<LinkVerdict>& links)
{
    std::map<const core::Slot*, Tally> tally;
    const auto land = [&](const core::Rack& rack, const core::Slot& s, const core::LinkClass& l, int n, double gbps,
                          int dir) {
        Tally& t = tally[&s];
        t.rack = &rack;
        t.slot = &s;
        t.used += n;
        t.byClass[l.id] += n;
        if (dir < 0) {
            t.down += n;
            t.downGbps += n * gbps;
        } else if (dir > 0) {
            t.up += n;
            t.upGbps += n * gbps;
        }
    };
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        const core::LinkClass& l = d.links[i];
        const double gbps = i < links.size() && !std::isnan(links[i].portRateGbps) ? links[i].portRateGbps : 0.0;
        if (l.scope == "chassis")
            continue; // inside the chassis (GPU to NIC): no external port
        if (!l.fromSlot.empty()) {
            for (const core::Rack& rack : d.racks)
                for (const core::Slot& s : rack.slots)
                    if (s.id == l.fromSlot || s.id == l.toSlot)
                        land(rack, s, l, 1, gbps, 0);
            continue;
        }
        if (l.scope == "rack") {
            forEachRackLink(d, l, [&](const core::Rack& rack, const core::Slot& from, const core::Slot* to) {
                const int n = core::portsPerInstance(l.from, *from.part);
                land(rack, from, l, n, gbps, 0);
                if (to)
                    land(rack, *to, l, n, gbps, -1); // its downlinks
            });
            continue;
        }
        // Fabric scope: the from end's uplinks leave the design.
        for (const core::Rack& rack : d.racks) {
            if (!l.appliesTo(rack))
                continue;
            for (const core::Slot& s : rack.slots)
                if (s.part->slug == l.from.partSlug)
                    land(rack, s, l, core::portsPerInstance(l.from, *s.part), gbps, +1);
        }
    }
    std::vector<PartPorts> out;
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots) {
            const auto it = tally.find(&s);
            if (it == tally.end())
                continue;
            const Tally& t = it->second;
            PartPorts p;
            p.id = s.id;
            p.part = s.part->slug;
            p.rack = rack.id;
            p.isSwitch = s.part->kind == core::PartKind::Switch;
            p.available = p.isSwitch ? static_cast<int>(s.part->value("ports", 0)) : chassisPorts(d, *s.part);
            p.used = t.used;
            p.downlinks = t.down;
            p.uplinks = t.up;
            p.downGbps = t.downGbps;
            p.upGbps = t.upGbps;
            p.oversubscription = t.upGbps > 0 ? t.downGbps / t.upGbps : NAN;
            for (const auto& [cls, n] : t.byClass)
                p.byClass += (p.byClass.empty() ? "" : ", ") + cls + " " + std::to_string(n);
            out.push_back(std::move(p));
        }
    return out;
}

} // namespace rdt::signal
