#include "core/LayoutExpander.h"

#include "core/WhatIf.h"

#include <algorithm>
#include <set>

namespace rdt::core {

std::string expandIdPattern(const std::string& pattern, long long n)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '{') {
            out += pattern[i];
            continue;
        }
        const std::size_t close = pattern.find('}', i);
        if (close == std::string::npos)
            return {};
        const std::string spec = pattern.substr(i + 1, close - i - 1);
        int width = 0;
        if (spec == "n") {
            width = 0;
        } else if (spec.rfind("n:0", 0) == 0 && spec.size() == 4 && spec[3] >= '1' && spec[3] <= '9') {
            width = spec[3] - '0';
        } else {
            return {};
        }
        std::string digits = std::to_string(n);
        if (static_cast<int>(digits.size()) < width)
            digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
        out += digits;
        i = close;
    }
    return out;
}

LayoutExpander::LayoutExpander(Design& design, const Catalog& catalog, const std::map<std::string, Cursor>& templates)
    : m_design(design), m_catalog(catalog), m_templates(templates)
{
}

void LayoutExpander::expand(const Cursor& layout)
{
    layout.allowKeys({"halls"});
    expandList(layout["halls"], Level::Hall, Context{});
    if (m_design.racks.empty())
        layout.fail("the layout holds no racks");
}

LayoutExpander::Level LayoutExpander::templateLevel(const Cursor& body) const
{
    if (body.has("rack_type"))
        return Level::Rack;
    if (body.has("racks"))
        return Level::Row;
    if (body.has("rows") && body.has("pods"))
        return Level::Hall;
    if (body.has("rows"))
        return Level::Pod;
    body.fail("cannot tell what this template is: a rack needs rack_type, a row needs racks, a pod needs rows");
}

static const char* levelName(int level)
{
    static const char* names[] = {"hall", "pod", "row", "rack"};
    return names[level];
}

void LayoutExpander::expandList(const Cursor& list, Level level, const Context& ctx)
{
    std::set<std::string> ids;
    for (const Cursor& item : list.elements()) {
        item.requireMap();
        if (!item.has("template")) {
            const std::string id = item["id"].str();
            if (id.empty() || id.find('/') != std::string::npos)
                item["id"].fail("an id must be non-empty and must not contain '/'");
            if (!ids.insert(id).second)
                item["id"].fail("duplicate id \"" + id + "\"");
            instantiate(item, level, ctx, id, item);
            continue;
        }
        item.allowKeys({"template", "count", "id", "start"});
        const Cursor nameCur = item["template"];
        const std::string name = nameCur.str();
        const auto it = m_templates.find(name);
        if (it == m_templates.end()) {
            std::vector<std::string> names;
            for (const auto& [n, c] : m_templates)
                names.push_back(n);
            nameCur.fail("unknown template \"" + name + "\"" + didYouMean(name, names));
        }
        const Level tl = templateLevel(it->second);
        if (tl != level)
            nameCur.fail("template \"" + name + "\" is a " + levelName(static_cast<int>(tl)) + ", but a " +
                         levelName(static_cast<int>(level)) + " is expected here");
        if (std::find(m_stack.begin(), m_stack.end(), name) != m_stack.end())
            nameCur.fail("template \"" + name + "\" contains itself");
        const long long count = item.has("count") ? item["count"].integer(1, kMaxCount) : 1;
        const long long start = item.has("start") ? item["start"].integer(0, 1000000) : 1;
        const std::string pattern = item.has("id") ? item["id"].str() : name + (count > 1 ? "{n}" : "");
        if (count > 1 && pattern.find("{n") == std::string::npos)
            (item.has("id") ? item["id"] : item).fail("with count > 1 the id needs {n} (e.g. \"rack{n:02}\")");
        m_stack.push_back(name);
        for (long long n = start; n < start + count; ++n) {
            const std::string id = expandIdPattern(pattern, n);
            if (id.empty() || id.find('/') != std::string::npos)
                item["id"].fail("bad id pattern \"" + pattern + "\" (use {n} or {n:02}; no '/')");
            if (!ids.insert(id).second)
                (item.has("id") ? item["id"] : item).fail("duplicate id \"" + id + "\"");
            instantiate(it->second, level, ctx, id, item);
        }
        m_stack.pop_back();
    }
}

void LayoutExpander::instantiate(const Cursor& body, Level level, const Context& ctx, const std::string& id,
                                 const Cursor& at)
{
    const std::string full = ctx.prefix.empty() ? id : ctx.prefix + "/" + id;
    Context child = ctx;
    child.prefix = full;
    switch (level) {
    case Level::Hall:
        body.allowKeys({"id", "pods", "rows"});
        child.hall = static_cast<int>(m_design.halls.size());
        m_design.halls.push_back(Group{full, -1, -1, {}, at.loc()});
        if (auto pods = body.find("pods"))
            expandList(*pods, Level::Pod, child);
        if (auto rows = body.find("rows"))
            expandList(*rows, Level::Row, child);
        break;
    case Level::Pod:
        body.allowKeys({"id", "rows"});
        child.pod = static_cast<int>(m_design.pods.size());
        m_design.pods.push_back(Group{full, ctx.hall, -1, {}, at.loc()});
        expandList(body["rows"], Level::Row, child);
        break;
    case Level::Row:
        body.allowKeys({"id", "racks"});
        child.row = static_cast<int>(m_design.rows.size());
        m_design.rows.push_back(Group{full, ctx.hall, ctx.pod, {}, at.loc()});
        expandList(body["racks"], Level::Rack, child);
        break;
    case Level::Rack:
        if (ctx.row < 0)
            at.fail("racks must sit in a row");
        instantiateRack(body, ctx, full, at);
        break;
    }
}

void LayoutExpander::instantiateRack(const Cursor& body, const Context& ctx, const std::string& id, const Cursor& at)
{
    if (m_design.racks.size() >= kMaxRacks)
        at.fail("the layout expands to more than " + std::to_string(kMaxRacks) + " racks; check the count: values");
    Rack rack = rackPrototype(body);
    rack.id = id;
    rack.hall = ctx.hall;
    rack.pod = ctx.pod;
    rack.row = ctx.row;
    Group& row = m_design.rows[static_cast<std::size_t>(ctx.row)];
    rack.positionInRow = static_cast<int>(row.racks.size());
    for (Slot& s : rack.slots)
        s.id = id + "/" + s.name;
    row.racks.push_back(static_cast<int>(m_design.racks.size()));
    const int rackIndex = static_cast<int>(m_design.racks.size());
    if (ctx.pod >= 0)
        m_design.pods[static_cast<std::size_t>(ctx.pod)].racks.push_back(rackIndex);
    m_design.halls[static_cast<std::size_t>(ctx.hall)].racks.push_back(rackIndex);
    m_design.racks.push_back(std::move(rack));
}

const Rack& LayoutExpander::rackPrototype(const Cursor& body)
{
    // A template is parsed once however many racks it stamps out.
    const std::string key = body.path();
    if (const auto it = m_prototypes.find(key); it != m_prototypes.end())
        return it->second;
    body.allowKeys({"id", "rack_type", "slots", "feeds", "blanking"});
    Rack proto;
    proto.loc = body.loc();
    proto.bodyPath = key;
    const Cursor typeCur = body["rack_type"];
    proto.rackType = &m_catalog.require(typeCur.str(), typeCur.loc());
    if (proto.rackType->kind != PartKind::Rack)
        typeCur.fail("\"" + proto.rackType->slug + "\" is a " + std::string(partKindName(proto.rackType->kind)) +
                     ", not a rack type");
    std::set<std::string> names;
    if (auto slots = body.find("slots")) {
        for (const Cursor& sc : slots->elements()) {
            Slot s = parseSlot(sc, *proto.rackType);
            if (!names.insert(s.name).second)
                (sc.has("id") ? sc["id"] : sc).fail("duplicate slot id \"" + s.name + "\" in this rack");
            proto.slots.push_back(std::move(s));
        }
    }
    if (auto feeds = body.find("feeds"))
        parseFeeds(*feeds, proto);
    if (auto b = body.find("blanking")) {
        const std::string v = b->str();
        if (v != "installed" && v != "missing")
            b->fail("blanking is installed (the default: empty OU closed by blanking panels) or missing (empty OU "
                    "open), not \"" +
                    v + "\"");
        proto.blankingMissing = v == "missing";
    }
    return m_prototypes.emplace(key, std::move(proto)).first->second;
}

void LayoutExpander::parseFeeds(const Cursor& feeds, Rack& rack) const
{
    for (const auto& [key, value] : feeds.entries()) {
        const std::string name = key; // a lambda below captures it (clang 14: no structured bindings)
        if (name != "A" && name != "B")
            value.fail("a rack's feeds are A and B (the names its power shelves' feed: uses)");
        const SourcedValue v = value.sourcedQuantity(Dimension::Power, Range{1.0, 1e8});
        rack.feeds.push_back({name, v.si, v.provenance.text, v.loc});
        const bool used =
            std::any_of(rack.slots.begin(), rack.slots.end(), [&](const Slot& s) { return s.overrides.feed == name; });
        if (!used) {
            // Name the shelf that takes no feed, the likely one meant (trust trial, 2026-12-07).
            std::string unnamed;
            for (const Slot& s : rack.slots)
                if (s.part->kind == PartKind::PowerShelf && s.overrides.feed.empty())
                    unnamed += (unnamed.empty() ? "" : ", ") + s.name;
            value.fail("feed " + name + " is declared but no power shelf of this rack is on it (feed: " + name + ")" +
                       (unnamed.empty() ? std::string() : "; " + unnamed + " names no feed"));
        }
    }
    for (const Slot& s : rack.slots)
        if (s.part->kind == PartKind::PowerShelf && s.overrides.feed.empty())
            feeds.fail("shelf " + s.name +
                       " names no feed: with feeds: declared, every power shelf says which it is on");
    for (const Slot& s : rack.slots)
        if (s.part->kind == PartKind::PowerShelf && !s.overrides.feed.empty() &&
            std::none_of(rack.feeds.begin(), rack.feeds.end(),
                         [&](const RackFeed& f) { return f.name == s.overrides.feed; }))
            feeds.fail("shelf " + s.name + " is on feed " + s.overrides.feed + ", which feeds: does not declare");
}

Slot LayoutExpander::parseSlot(const Cursor& c, const Part& rackType) const
{
    c.allowKeys({"ou", "part", "id", "gpu_power_cap", "utilisation", "failed_fans", "feed"});
    Slot s;
    s.loc = c.loc();
    const Cursor partCur = c["part"];
    s.part = &m_catalog.require(partCur.str(), partCur.loc());
    if (!s.part->slottable())
        partCur.fail("\"" + s.part->slug + "\" is a " + std::string(partKindName(s.part->kind)) +
                     " and does not go in a rack slot");
    const long long usable = static_cast<long long>(rackType.value("usable_ou", 44));
    s.ou =
        static_cast<int>(c["ou"].integer(1, std::max(usable, 1LL) + 20)); // beyond usable is a rule, not a parse error
    s.name = c.has("id") ? c["id"].str() : "ou" + std::to_string(s.ou);
    if (s.name.empty() || s.name.find('/') != std::string::npos)
        c["id"].fail("a slot id must be non-empty and must not contain '/'");

    const bool isChassis = s.part->kind == PartKind::Chassis;
    if (auto cap = c.find("gpu_power_cap")) {
        if (!isChassis)
            cap->fail("gpu_power_cap applies to GPU chassis only");
        // The GPU's own settable range, the same that --gpu-cap and the what-ifs take (core/WhatIf.h).
        s.overrides.gpuPowerCapW = cap->quantity(Dimension::Power, gpuCapRange(m_catalog, *s.part));
    }
    if (auto u = c.find("utilisation")) {
        // Only a chassis' draw follows its load; anything else would be accepted and ignored.
        if (!isChassis)
            u->fail("utilisation applies to GPU chassis only (\"" + s.part->slug + "\" is a " +
                    std::string(partKindName(s.part->kind)) + ": its draw does not follow the GPUs' load)");
        s.overrides.utilisation = u->quantity(Dimension::Ratio, Range{0.0, 1.0});
    }
    if (auto f = c.find("failed_fans")) {
        const long long rotors = rotorCount(*s.part);
        if (rotors == 0)
            f->fail("\"" + s.part->slug + "\" has no fans in the catalog");
        s.overrides.failedFanRotors = static_cast<int>(f->integer(0, rotors));
    }
    if (auto feed = c.find("feed")) {
        if (s.part->kind != PartKind::PowerShelf)
            feed->fail("feed applies to power shelves only");
        s.overrides.feed = feed->str();
        if (s.overrides.feed != "A" && s.overrides.feed != "B")
            feed->fail("feed must be A or B");
    }
    return s;
}

} // namespace rdt::core
