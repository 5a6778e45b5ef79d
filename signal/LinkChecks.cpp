#include "signal/LinkChecks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/DataDir.h"
#include "core/LayoutGeometry.h"
#include "signal/LinkAnalysis.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>

namespace rdt::signal {

using core::Dimension;

namespace {

/// A class none of whose from-end parts is placed in the racks it applies to makes no link: the
/// network checks judged the design as if it had none to make (trust trial, 2026-12-07).
void checkEmptyClasses(core::CheckContext& ctx)
{
    const core::Design& d = ctx.design();
    for (const core::LinkClass& l : d.links) {
        if (!l.fromSlot.empty())
            continue; // a port-to-port link names its two slots, which the loader requires
        std::size_t placed = 0;
        for (const core::Rack& r : d.racks)
            if (l.appliesTo(r))
                placed += static_cast<std::size_t>(std::count_if(
                    r.slots.begin(), r.slots.end(), [&](const core::Slot& s) { return s.part->slug == l.from.partSlug; }));
        if (placed == 0)
            ctx.report("links/" + l.id,
                       "link class " + l.id + " makes no link: no " + l.from.partSlug + " is placed in " +
                           (l.racks.empty() ? std::string("the layout") : "the racks it applies to") +
                           " (remove the class, or place the part)",
                       0, 1, "parts", l.loc);
    }
}

void checkEndpoints(core::CheckContext& ctx)
{
    for (const core::LinkClass& l : ctx.design().links)
        forEachRackLink(ctx.design(), l, [&](const core::Rack& rack, const core::Slot& from, const core::Slot* to) {
            if (!to)
                ctx.report(from.id,
                           "link class " + l.id + ": " + from.name + " (" + from.part->slug + ") has no " +
                               l.to.partSlug + " in rack " + rack.id + " to connect to",
                           0, 1, "parts", from.loc);
        });
}

/// A port-to-port link between two racks: up its own rack from each slot to the rack's top, along
/// the overhead tray between the racks (their floor positions, along x then y), plus the routing
/// slack — the shortest run a cable tray allows, so a cable shorter than it cannot be laid.
void checkCrossRack(core::CheckContext& ctx, const core::LinkClass& l, const core::Rack& fromRack,
                    const core::Rack& toRack, double length, const std::string& against)
{
    const core::LayoutGeometry geo = core::computeLayout(ctx.design());
    const auto index = [&](const core::Rack& r) { return static_cast<int>(&r - ctx.design().racks.data()); };
    const auto up = [&](const core::Rack& r, const std::string& slotId) {
        for (const core::Box& b : geo.parts)
            if (b.rack == index(r) && r.slots[static_cast<std::size_t>(b.slot)].id == slotId)
                return geo.frames[static_cast<std::size_t>(b.rack)].max[2] - 0.5 * (b.min[2] + b.max[2]);
        return 0.0;
    };
    const core::Box& a = geo.frames[static_cast<std::size_t>(index(fromRack))];
    const core::Box& b = geo.frames[static_cast<std::size_t>(index(toRack))];
    const auto centre = [](const core::Box& x, int axis) {
        return 0.5 * (x.min[static_cast<std::size_t>(axis)] + x.max[static_cast<std::size_t>(axis)]);
    };
    const double need = up(fromRack, l.fromSlot) + up(toRack, l.toSlot) + std::fabs(centre(a, 0) - centre(b, 0)) +
                        std::fabs(centre(a, 1) - centre(b, 1)) + ctx.constraint("routing_slack");
    if (need > length)
        ctx.report("links/" + l.id,
                   "link " + l.id + ": " + l.fromSlot + ":" + l.fromPort + " (rack " + fromRack.id + ") to " +
                       l.toSlot + ":" + l.toPort + " (rack " + toRack.id + ") needs about " +
                       formatQuantity(need, Dimension::Length) + " of cable (up each rack, along the tray), " +
                       against,
                   need, length, "m", l.loc);
}

/// A cable the catalog gives one length (a DAC) declared at another: the channel is synthesised at
/// the declared length, which is not the part named (until 2026-12-07 a 1 m DAC declared 1.5 m was
/// analysed at 1.5 m without a word, and one declared shorter than its part at the shorter length).
void checkCableLength(core::CheckContext& ctx)
{
    for (const core::LinkClass& l : ctx.design().links) {
        if (!l.cable || !l.lengthM)
            continue;
        const auto own = l.cable->find("length");
        if (!own || *own <= 0 || std::fabs(*l.lengthM - *own) <= 1e-3)
            continue;
        ctx.report("links/" + l.id,
                   "link class " + l.id + " declares " + formatQuantity(*l.lengthM, Dimension::Length) + " of " +
                       l.cable->slug + ", which is " + formatQuantity(*own, Dimension::Length) +
                       " long: name the catalog part of that length, or leave length: out",
                   *l.lengthM, *own, "m", l.loc);
    }
}

void checkReach(core::CheckContext& ctx)
{
    const double slack = ctx.constraint("routing_slack");
    for (const core::LinkClass& l : ctx.design().links) {
        if (!l.cable)
            continue;
        const double length = l.lengthM.value_or(l.cable->value("length", 0.0));
        const auto reach = l.cable->find("max_reach");
        if (reach && length > *reach)
            ctx.report("links/" + l.id,
                       "link class " + l.id + ": " + formatQuantity(length, Dimension::Length) + " of " +
                           l.cable->slug + " exceeds its " + formatQuantity(*reach, Dimension::Length) + " reach",
                       length, *reach, "m", l.loc);
        // A cable without a length in the catalog (or the design) is as long as the placement needs
        // (docs/signal.md), which its reach still bounds.
        const bool byReach = length <= 0.0;
        if (byReach && !reach)
            continue;
        const double limit = byReach ? *reach : length;
        const std::string against =
            byReach ? "beyond the " + formatQuantity(*reach, Dimension::Length) + " reach of " + l.cable->slug +
                          " (no length in the catalog)"
                    : l.cable->slug + " is " + formatQuantity(length, Dimension::Length);
        if (!l.fromSlot.empty()) { // one port-to-port link: its two slots
            const core::Slot *from = nullptr, *to = nullptr;
            const core::Rack *fromRack = nullptr, *toRack = nullptr;
            for (const core::Rack& rack : ctx.design().racks)
                for (const core::Slot& s : rack.slots) {
                    if (s.id == l.fromSlot) {
                        from = &s;
                        fromRack = &rack;
                    }
                    if (s.id == l.toSlot) {
                        to = &s;
                        toRack = &rack;
                    }
                }
            if (!from || !to)
                continue; // the loader refuses a port on no slot
            if (fromRack != toRack) {
                checkCrossRack(ctx, l, *fromRack, *toRack, limit, against);
                continue;
            }
            const double need = requiredCableLengthM(*from, *to, kOpenUM, slack);
            if (need > limit)
                ctx.report("links/" + l.id,
                           "link " + l.id + ": " + l.fromSlot + ":" + l.fromPort + " to " + l.toSlot + ":" + l.toPort +
                               " needs about " + formatQuantity(need, Dimension::Length) + " of cable, " + against,
                           need, limit, "m", l.loc);
            continue;
        }
        forEachRackLink(ctx.design(), l, [&](const core::Rack&, const core::Slot& from, const core::Slot* to) {
            if (!to)
                return;
            const double need = requiredCableLengthM(from, *to, kOpenUM, slack);
            if (need > limit)
                ctx.report(from.id,
                           "link class " + l.id + ": " + from.name + " to " + to->name + " needs about " +
                               formatQuantity(need, Dimension::Length) + " of cable, " + against,
                           need, limit, "m", from.loc);
        });
    }
}

} // namespace

std::string siProfileDir()
{
    return core::dataDir() + "/si-profiles";
}

namespace {

void checkVerdicts(core::CheckContext& ctx, bool fallbacks)
{
    const auto r = signalFor(ctx.design(), ctx.results(), siProfileDir());
    for (std::size_t i = 0; i < r->links.size(); ++i) {
        const LinkVerdict& v = r->links[i];
        const core::LinkClass& l = ctx.design().links[i];
        char what[200];
        if (std::isnan(v.comDb))
            std::snprintf(what, sizeof what, "insertion loss %.1f dB at Nyquist over %.2f m", v.ilNyquistDb, v.lengthM);
        else
            std::snprintf(what, sizeof what, "COM %.2f dB, insertion loss %.1f dB at Nyquist over %.2f m", v.comDb,
                          v.ilNyquistDb, v.lengthM);
        if (!fallbacks && v.laneRateGbps <= 0)
            ctx.report("links/" + v.id, "link class " + v.id + " (" + v.kind + ") does not close: " + what,
                       std::isnan(v.comDb) ? v.ilNyquistDb : v.comDb, std::isnan(v.comDb) ? NAN : 3.0,
                       std::isnan(v.comDb) ? "dB IL" : "dB COM", l.loc);
        // PCIe lanes are counted in GT/s (Gen5 32, Gen4 16); Ethernet lanes in Gb/s (100, 50).
        const bool pcie = v.kind == "pcie-gen5";
        if (fallbacks && !v.pass && v.laneRateGbps > 0)
            ctx.report("links/" + v.id,
                       "link class " + v.id + " (" + v.kind + ") holds only " +
                           std::to_string(static_cast<int>(v.laneRateGbps)) + (pcie ? " GT/s" : " Gb/s") +
                           " per lane (" + v.verdict + "): at that rate " + what,
                       v.laneRateGbps, pcie ? 32.0 : 100.0, pcie ? "GT/s" : "Gb/s", l.loc);
    }
}

} // namespace

namespace {

/// Each switch's and each chassis' ports, at its own count.
void checkPorts(core::CheckContext& ctx, bool switches)
{
    const auto r = signalFor(ctx.design(), ctx.results(), siProfileDir());
    for (const PartPorts& p : r->ports) {
        if (p.isSwitch != switches || p.available <= 0 || p.used <= p.available)
            continue;
        const core::Slot* slot = nullptr;
        for (const core::Rack& rack : ctx.design().racks)
            if (rack.id == p.rack)
                for (const core::Slot& s : rack.slots)
                    slot = s.id == p.id ? &s : slot;
        ctx.report(p.id,
                   p.part + " " + p.id.substr(p.id.rfind('/') + 1) + ": " + std::to_string(p.used) +
                       (switches ? " links land on its " + std::to_string(p.available) + " ports"
                                 : " links leave its " + std::to_string(p.available) + " interfaces") +
                       " (" + p.byClass + ")",
                   p.used, p.available, switches ? "ports" : "interfaces", slot ? slot->loc : core::SourceLoc{});
    }
}

/// A link class whose two ends' ports differ: the faster end runs at the slower's rate.
void checkMismatch(core::CheckContext& ctx)
{
    const auto r = signalFor(ctx.design(), ctx.results(), siProfileDir());
    for (std::size_t i = 0; i < r->links.size(); ++i) {
        const LinkVerdict& v = r->links[i];
        if (!v.downgraded)
            continue;
        char rate[96];
        std::snprintf(rate, sizeof rate, "%g Gb/s with %g Gb/s lanes", v.portRateGbps, v.negotiatedLaneGbps);
        ctx.report("links/" + v.id,
                   "link class " + v.id + ": " + v.fromPort + " meets " + v.toPort + ": the link runs at " + rate,
                   v.portRateGbps, v.fasterPortGbps, "Gb/s", ctx.design().links[i].loc);
    }
}

/// A port takes one cable. A link class's `interfaces:` glob on its from end claims the interfaces it
/// matches on each instance of its from-part (in the racks it applies to; not a chassis-scope class,
/// which stays inside the chassis); a port-to-port link claims its two ports. Classes that give a
/// count instead of interface names claim no named port.
void checkReuse(core::CheckContext& ctx)
{
    const core::Design& d = ctx.design();
    std::multimap<std::string, const core::LinkClass*> portToPort; // slot id → links with an end there
    for (const core::LinkClass& l : d.links)
        if (!l.fromSlot.empty()) {
            portToPort.emplace(l.fromSlot, &l);
            if (l.toSlot != l.fromSlot)
                portToPort.emplace(l.toSlot, &l);
        }
    for (const core::Rack& rack : d.racks) {
        std::vector<const core::LinkClass*> classes;
        for (const core::LinkClass& l : d.links)
            // Inside a chassis (GPU to NIC) no external port; a count names no port.
            if (l.fromSlot.empty() && !l.from.interfaces.empty() && l.from.count == 0 && l.from.component.empty() &&
                l.scope != "chassis" && l.appliesTo(rack))
                classes.push_back(&l);
        for (const core::Slot& s : rack.slots) {
            std::map<std::string, std::vector<std::string>> by; // interface → the links on it
            for (const core::LinkClass* l : classes)
                if (l->from.partSlug == s.part->slug)
                    for (const core::Interface& i : s.part->interfaces)
                        if (core::globMatch(l->from.interfaces, i.name))
                            by[i.name].push_back("link class " + l->id);
            const auto [first, last] = portToPort.equal_range(s.id);
            for (auto it = first; it != last; ++it) {
                const core::LinkClass& l = *it->second;
                if (l.fromSlot == s.id)
                    by[l.fromPort].push_back("link " + l.id);
                if (l.toSlot == s.id)
                    by[l.toPort].push_back("link " + l.id);
            }
            std::string shared;
            std::size_t most = 0;
            for (const auto& [port, links] : by)
                if (links.size() > 1) {
                    std::string names;
                    for (const std::string& n : links)
                        names += (names.empty() ? "" : ", ") + n;
                    shared += (shared.empty() ? "" : "; ") + port + " carries " + std::to_string(links.size()) +
                              " links (" + names + ")";
                    most = std::max(most, links.size());
                }
            if (most > 1)
                ctx.report(s.id, s.name + " (" + s.part->slug + "): " + shared + ": a port takes one cable",
                           static_cast<double>(most), 1, "links", s.loc);
        }
    }
}

} // namespace

void registerChecks(core::CheckRegistry& registry)
{
    registry.add({"switch.ports",
                  "Links landing on a switch within its ports",
                  core::Severity::Error,
                  "the switch's catalogued port count (e.g. Wedge 400: 48 cages [S2][S3]; Minipack2: 128 [S2][S4])",
                  "Every link class's links that land on one switch instance — rack-scope links from the parts of "
                  "its rack, its fabric uplinks, port-to-port links — exceed the switch's ports.",
                  {}},
                 [](core::CheckContext& c) { checkPorts(c, true); });
    registry.add({"chassis.interfaces",
                  "Links from a chassis within its interfaces",
                  core::Severity::Error,
                  "the chassis' catalogued interfaces (NetBox device type), else its NICs' ports",
                  "The links every class takes from one chassis instance exceed its catalogued interfaces (Grand "
                  "Teton: 10). A chassis with neither interfaces nor NICs in the catalog is not counted.",
                  {}},
                 [](core::CheckContext& c) { checkPorts(c, false); });
    registry.add({"link.port.reused",
                  "Each named port carries one link",
                  core::Severity::Error,
                  "a port's cage takes one plug (the OSFP and QSFP-DD MSAs define one module or cable end a cage)",
                  "A named interface of one part instance is claimed by more than one link: by two link classes "
                  "whose from-end `interfaces:` globs both match it, by a class and a port-to-port link, or by "
                  "two port-to-port links. Chassis-scope classes (inside the chassis) and classes that give a "
                  "port count instead of interface names are counted by chassis.interfaces and switch.ports only.",
                  {}},
                 checkReuse);
    registry.add({"link.rate.mismatch",
                  "Both ends of a link class at the same port speed and lane rate",
                  core::Severity::Warning,
                  "IEEE 802.3 auto-negotiation / link training: a link runs at the highest rate both ends support",
                  "The two ends' ports (a chassis' NIC, a switch) differ in port speed or lane rate: the link is "
                  "negotiated down to the slower end, and COM and the eye are evaluated at that lane rate.",
                  {}},
                 checkMismatch);
    registry.add({"link.endpoint.missing",
                  "Rack-scope links need their far end in the rack",
                  core::Severity::Error,
                  "design link classes (docs/design-format.md)",
                  "A link class of scope rack names a far-end part that the rack does not hold.",
                  {}},
                 checkEndpoints);
    registry.add({"link.class.empty",
                  "Every link class makes a link",
                  core::Severity::Warning,
                  "design link classes (docs/design-format.md)",
                  "A link class none of whose from-end parts is placed in the racks it applies to makes no "
                  "link, so nothing of it is judged: a part renamed or removed, or a class left from another "
                  "design.",
                  {}},
                 checkEmptyClasses);
    registry.add({"signal.cable.reach",
                  "Cables long enough for the placement and within reach",
                  core::Severity::Error,
                  "IEEE P802.3ck objectives: passive copper at 100 Gb/s per lane reaches at least 2 m [E1]; NVIDIA "
                  "MCP4Y10 DAC 0.5–2 m [N3]",
                  "A cable's length exceeds its max_reach, or the distance between the two parts exceeds the "
                  "cable's length: in one rack the vertical OU distance plus routing slack (link classes and "
                  "port-to-port links alike); between two racks up each rack to its top, along the tray between "
                  "them (x then y) and the slack.",
                  {{"routing_slack", {kRoutingSlackM, Dimension::Length}}}},
                 checkReach);
    registry.add({"signal.cable.length",
                  "A cable of one length is declared at its length",
                  core::Severity::Error,
                  "catalog cable parts with a length (passive DACs are sold in fixed lengths: NVIDIA MCP4Y10 "
                  "0.5-2 m [N3])",
                  "A link class names a cable part that has one length in the catalog (a DAC) and declares "
                  "another length (more than 1 mm apart): its channel is analysed at the declared length, which "
                  "is not the part named.",
                  {}},
                 checkCableLength);
    registry.add({"signal.link.close",
                  "Every link class closes at some lane rate",
                  core::Severity::Error,
                  "COM ≥ 3 dB (IEEE 802.3 Annex 93A) [E4]; PCIe Gen5 ≤ 36 dB at 16 GHz [X1]; C2M ~16 dB [E2]",
                  "The channel synthesised for a link class (host traces, cable) fails its COM or insertion-loss "
                  "budget even at the fallback rate.",
                  {}},
                 [](core::CheckContext& c) { checkVerdicts(c, false); });
    registry.add({"signal.link.rate",
                  "Link classes hold their full lane rate",
                  core::Severity::Warning,
                  "IEEE 802.3ck (100 Gb/s per lane) and 802.3cd (50 Gb/s per lane) COM tables (estimates)",
                  "A link class closes only at a reduced lane rate (50 Gb/s per lane, or PCIe Gen4).",
                  {}},
                 [](core::CheckContext& c) { checkVerdicts(c, true); });
}

} // namespace rdt::signal
