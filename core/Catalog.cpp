#include "core/Catalog.h"
#include "core/CatalogFields.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace rdt::core {
namespace {

using namespace detail;

constexpr std::pair<PartKind, const char*> kKindNames[] = {
    {PartKind::Rack, "rack"},
    {PartKind::Chassis, "chassis"},
    {PartKind::PowerShelf, "power-shelf"},
    {PartKind::BbuShelf, "bbu-shelf"},
    {PartKind::Switch, "switch"},
    {PartKind::Gpu, "gpu"},
    {PartKind::Nic, "nic"},
    {PartKind::Cable, "cable"},
    {PartKind::Cdu, "cdu"},
    {PartKind::Device, "device"},
};

/// NetBox devicetype-library top-level keys that rdt keeps but does not interpret.
const std::vector<std::string> kNetboxKept = {"part_number",      "is_full_depth", "subdevice_role",
                                              "front_image",      "rear_image",    "exclude_from_utilization",
                                              "default_platform", "console-ports", "console-server-ports",
                                              "power-outlets",    "front-ports",   "rear-ports",
                                              "module-bays",      "device-bays",   "inventory-items",
                                              "module-types",     "description",   "power-ports",
                                              "interfaces",       "airflow",       "weight",
                                              "weight_unit",      "u_height",      "comments"};

const std::vector<std::string> kTopLevel = [] {
    std::vector<std::string> v = {"manufacturer", "model", "slug", "source", "sources", "rdt"};
    v.insert(v.end(), kNetboxKept.begin(), kNetboxKept.end());
    return v;
}();

constexpr double kEiaUnitM = 0.04445;
constexpr double kOpenUM = 0.048;

SourcedValue readInteger(const Cursor& c, double lo, double hi, bool whole = true)
{
    SourcedValue out;
    const Cursor* scalar = &c;
    std::optional<Cursor> value;
    if (c.isMap()) {
        c.allowKeys({"value", "source", "estimate"});
        value = c["value"];
        scalar = &*value;
        if (auto s = c.find("source"))
            out.provenance = {Provenance::Kind::Source, s->str()};
        else if (auto e = c.find("estimate"))
            out.provenance = {Provenance::Kind::Estimate, e->str()};
        else
            c.fail("a value written as a map needs \"source\" or \"estimate\" beside \"value\"");
    }
    out.si = whole ? static_cast<double>(scalar->integer(static_cast<long long>(lo), static_cast<long long>(hi)))
                   : scalar->number(lo, hi);
    out.count = true;
    out.loc = scalar->loc();
    return out;
}

/// `[[x, y], ...]` or `{value: [[x, y], ...], source|estimate: ...}`; x strictly increasing.
Curve readCurve(const Cursor& c, const FieldSpec& spec)
{
    Curve out;
    out.loc = c.loc();
    const Cursor* list = &c;
    std::optional<Cursor> value;
    if (c.isMap()) {
        c.allowKeys({"value", "source", "estimate"});
        value = c["value"];
        list = &*value;
        if (auto s = c.find("source"))
            out.provenance = {Provenance::Kind::Source, s->str()};
        else if (auto e = c.find("estimate"))
            out.provenance = {Provenance::Kind::Estimate, e->str()};
        else
            c.fail("a curve written as a map needs \"source\" or \"estimate\" beside \"value\"");
    }
    const std::vector<Cursor> points = list->elements();
    if (points.size() < 2)
        list->fail("a curve needs at least two points [x, y]");
    for (const Cursor& p : points) {
        if (!p.isSequence() || p.size() != 2)
            p.fail("a curve point is a pair [x, y], e.g. [50 %, 97.5 %]");
        const double x = p.at(0).quantity(spec.dim, Range{spec.min, spec.max});
        const double y = p.at(1).quantity(spec.yDim, Range{spec.yMin, spec.yMax});
        if (!out.points.empty() && x <= out.points.back().first)
            p.at(0).fail("curve points must be in strictly increasing order of their first value (load)");
        out.points.emplace_back(x, y);
    }
    return out;
}

void readFields(const Cursor& rdt, Part& part, const std::vector<FieldSpec>& specs, const std::string& prefix)
{
    std::vector<std::string> allowed;
    for (const auto& s : specs) {
        const std::string p = s.path;
        if (p.rfind(prefix, 0) != 0)
            continue;
        const std::string rest = p.substr(prefix.size());
        const std::string head = rest.substr(0, rest.find('.'));
        if (std::find(allowed.begin(), allowed.end(), head) == allowed.end())
            allowed.push_back(head);
    }
    if (prefix.empty())
        for (const char* k : {"kind", "ou_height", "busbar_tap"})
            allowed.emplace_back(k);
    rdt.allowKeys(allowed);

    for (const auto& [key, child] : rdt.entries()) {
        if (prefix.empty() && (key == "kind" || key == "ou_height" || key == "busbar_tap"))
            continue;
        const std::string full = prefix + key;
        const auto spec = std::find_if(specs.begin(), specs.end(), [&](const FieldSpec& s) { return full == s.path; });
        if (spec == specs.end()) {
            readFields(child, part, specs, full + "."); // a group such as power: {idle, max}
            continue;
        }
        switch (spec->type) {
        case FieldType::Quantity:
            part.values[full] = child.sourcedQuantity(spec->dim, Range{spec->min, spec->max});
            break;
        case FieldType::Integer: part.values[full] = readInteger(child, spec->min, spec->max); break;
        case FieldType::Number: part.values[full] = readInteger(child, spec->min, spec->max, false); break;
        case FieldType::Text:
            part.texts[full] = child.str();
            part.textLocs[full] = child.loc();
            break;
        case FieldType::Curve: part.curves[full] = readCurve(child, *spec); break;
        }
    }
}

PartKind parseKind(const Cursor& c)
{
    const std::string s = c.str();
    std::vector<std::string> names;
    for (const auto& [k, name] : kKindNames) {
        if (s == name)
            return k;
        names.emplace_back(name);
    }
    c.fail("unknown part kind \"" + s + "\"" + didYouMean(s, names));
}

void readNetbox(const Cursor& doc, Part& part)
{
    if (auto a = doc.find("airflow"))
        part.airflow = a->str();
    if (auto c = doc.find("comments"))
        part.comments = c->str();
    if (auto w = doc.find("weight")) {
        if (auto wu = doc.find("weight_unit")) {
            // NetBox form: a bare number plus weight_unit.
            const ParsedQuantity p = parseQuantity(w->str() + " " + wu->str(), Dimension::Mass);
            if (!p.value)
                w->fail(p.error);
            SourcedValue v;
            v.si = *p.value;
            v.dim = Dimension::Mass;
            v.loc = w->loc();
            part.values["weight"] = v;
        } else {
            part.values["weight"] = w->sourcedQuantity(Dimension::Mass);
        }
    }
    if (auto ifs = doc.find("interfaces")) {
        for (const auto& e : ifs->elements()) {
            e.requireMap();
            part.interfaces.push_back({e["name"].str(), e.has("type") ? e["type"].str() : std::string()});
        }
    }
    if (auto pp = doc.find("power-ports")) {
        double draw = 0.0;
        bool any = false;
        for (const auto& e : pp->elements()) {
            e.requireMap();
            if (auto m = e.find("maximum_draw")) {
                // NetBox gives watts per port; redundant PSUs each carry the whole device, so the
                // device's draw is the largest port's, not the sum.
                draw = std::max(draw, static_cast<double>(m->integer(0, 10'000'000)));
                any = true;
            }
        }
        if (any && !part.values.count("power.max")) {
            SourcedValue v;
            v.si = draw;
            v.dim = Dimension::Power;
            v.loc = pp->loc();
            part.values["power.max"] = v;
        }
    }
    YAML::Node kept; // read again by yaml-cpp: the catalog keeps it to write it back
    for (const auto& [key, value] : doc.entries())
        if (std::find(kNetboxKept.begin(), kNetboxKept.end(), key) != kNetboxKept.end())
            kept[key] = parseYaml(value.yamlText(), value.file());
    part.netbox = kept;
}

/// Cross-field checks that a single field's range cannot express.
void checkConsistency(const Cursor& doc, const Part& part)
{
    auto where = [&](const std::string& field) {
        // A number's own line, else a text field's (a bad cdu.type was located at the file's line 1).
        const auto it = part.values.find(field);
        const auto text = part.textLocs.find(field);
        SourceLoc loc = it != part.values.end() ? it->second.loc : text != part.textLocs.end() ? text->second : doc.loc();
        loc.path = "rdt." + field;
        return loc;
    };
    if (part.kind == PartKind::PowerShelf) {
        const auto slots = part.find("slots"), modules = part.find("modules");
        if (slots && modules && *modules > *slots)
            throw InputError(where("modules"), "a shelf with " + std::to_string(static_cast<int>(*slots)) +
                                                   " slots cannot hold " + std::to_string(static_cast<int>(*modules)) +
                                                   " modules");
        if (!part.find("module_rating") || !modules)
            throw InputError(where("modules"), "a power shelf needs modules and module_rating");
    }
    if (part.kind == PartKind::Rack) {
        const std::string busbar = part.text("busbar");
        if (!busbar.empty() && busbar != "none")
            throw InputError(where("busbar"), "busbar: takes only \"none\" (a rack without a busbar, whose parts "
                                              "bring their own supplies); a busbar is described by busbar_rating");
        if (busbar == "none" && part.find("busbar_rating"))
            throw InputError(where("busbar_rating"), "a rack with busbar: none has no busbar_rating");
        if (busbar.empty() && !part.find("busbar_rating"))
            throw InputError(where("busbar_rating"), "a rack type needs busbar_rating (e.g. \"375 A\"), or "
                                                     "busbar: none when its parts bring their own supplies");
    }
    if (part.kind == PartKind::Cdu) {
        const std::string type = part.text("cdu.type");
        if (type != "liquid-to-liquid" && type != "liquid-to-air")
            throw InputError(where("cdu.type"), "a CDU needs cdu.type: liquid-to-liquid (facility water) or "
                                                "liquid-to-air (an AALC or sidecar rejecting to the room's air)");
        for (const char* f : {"cdu.rating.heat", "cdu.rating.approach", "cdu.rating.it_flow",
                              "cdu.rating.facility_flow", "cdu.pumps", "cdu.pump.shutoff", "cdu.pump.max_flow"})
            if (!part.find(f))
                throw InputError(where(f), std::string("a CDU needs ") + f +
                                               " (its exchanger is rated at one point and its pumps by a head curve; "
                                               "see docs/liquid.md)");
    }
    for (const char* f : {"liquid.loop.pressure", "liquid.loop.flow", "liquid.plate.resistance"})
        if (part.find("liquid.fraction") && !part.find(f) && !part.curve(f))
            throw InputError(where("liquid.fraction"),
                             std::string("a liquid-cooled part (liquid.fraction) needs ") + f +
                                 ": its cold-plate loop's pressure drop at a flow, and its plates' resistance curve");
    if (part.kind == PartKind::BbuShelf && (!part.find("modules") || !part.find("module_rating")))
        throw InputError(where("modules"), "a BBU shelf needs modules and module_rating");
    // A fan curve with no fans to drive it: the air path silently had none ("no fans.curve" was
    // reported at the design's slot, never at this field; trust trial, 2026-12-07).
    if (const auto fans = part.find("fans.count"); fans && *fans == 0 && part.curve("fans.curve"))
        throw InputError(where("fans.count"), "fans.count is 0 but the part has a fans.curve: give its fans' number "
                                              "(the curve is one fan's), or drop the curve for a fanless part");
    if (const Curve* fan = part.curve("fans.curve"))
        for (std::size_t i = 1; i < fan->points.size(); ++i)
            if (fan->points[i].second > fan->points[i - 1].second) {
                SourceLoc loc = fan->loc;
                loc.path = "rdt.fans.curve[" + std::to_string(i) + "]";
                throw InputError(loc, "a fan curve's pressure must fall as flow rises");
            }
    // A part's draws in their order, idle <= typical <= max: a typical draw above the maximum would pass a
    // budget at nameplate that the part exceeds in normal use.
    const auto idle = part.find("power.idle"), typical = part.find("power.typical"), max = part.find("power.max");
    const auto order = [&](const char* lowName, std::optional<double> low, const char* highName,
                           std::optional<double> high) {
        if (low && high && *low > *high)
            throw InputError(where(lowName), std::string(lowName) + " " +
                                                 formatQuantity(*low, Dimension::Power) + " exceeds " + highName +
                                                 " " + formatQuantity(*high, Dimension::Power));
    };
    order("power.idle", idle, "power.typical", typical);
    order("power.typical", typical, "power.max", max);
    order("power.idle", idle, "power.max", max);
    // A GPU's temperature limits in their order: it slows down, and the junction rule judges it, below
    // the temperature at which it shuts down (a limit above shutdown would pass a GPU that is off).
    if (const auto shutdown = part.find("shutdown_temp"))
        for (const char* f : {"max_operating_temp", "slowdown_temp"})
            if (const auto t = part.find(f); t && *t >= *shutdown)
                throw InputError(where(f), std::string(f) + " " + formatQuantity(*t, Dimension::Temperature) +
                                               " is not below shutdown_temp " +
                                               formatQuantity(*shutdown, Dimension::Temperature) +
                                               ": the GPU would be judged running where it has shut down");
}

} // namespace

std::string_view partKindName(PartKind k)
{
    for (const auto& [kind, name] : kKindNames)
        if (kind == k)
            return name;
    return "device";
}

bool Part::slottable() const
{
    return kind == PartKind::Chassis || kind == PartKind::PowerShelf || kind == PartKind::BbuShelf ||
           kind == PartKind::Switch || kind == PartKind::Device;
}

std::optional<double> Part::find(std::string_view field) const
{
    const auto it = values.find(field);
    if (it == values.end())
        return std::nullopt;
    return it->second.si;
}

double Part::value(std::string_view field, double fallback) const
{
    return find(field).value_or(fallback);
}

const Curve* Part::curve(std::string_view field) const
{
    const auto it = curves.find(field);
    return it == curves.end() ? nullptr : &it->second;
}

std::string Part::text(std::string_view field) const
{
    const auto it = texts.find(field);
    return it == texts.end() ? std::string() : it->second;
}

SourceLoc Part::textLoc(std::string_view field) const
{
    const auto it = textLocs.find(field);
    SourceLoc where = it == textLocs.end() ? loc : it->second;
    where.path = "rdt." + std::string(field);
    return where;
}

const std::vector<PartReference>& partReferences()
{
    static const std::vector<PartReference> kRefs = {{"gpus.part", PartKind::Gpu}, {"nics.part", PartKind::Nic}};
    return kRefs;
}

std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

void Catalog::loadDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(SourceLoc{dir, 0, 0, {}}, "catalog folder not found");
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".yaml")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        if (f.filename() == "sources.yaml")
            mergeSources(m_sourceKeys, folderSources(f.parent_path().string()));
        else
            loadFile(f.string());
    }
}

const Part& Catalog::loadFile(const std::string& path)
{
    return loadText(readTextFile(path), path);
}

const Part& Catalog::loadText(const std::string& text, const std::string& fileName)
{
    const Cursor doc = Cursor::parse(text, fileName);
    if (!doc.isMap())
        doc.fail("a catalog part must be a mapping with manufacturer, model and slug");
    doc.allowKeys(kTopLevel);

    auto part = std::make_unique<Part>();
    part->loc = SourceLoc{fileName, 1, 1, {}};
    part->contentHash = fnv1a(text);
    part->manufacturer = doc["manufacturer"].str();
    part->model = doc["model"].str();
    const Cursor slug = doc["slug"];
    part->slug = slug.str();
    const auto slugChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    };
    if (part->slug.empty() || !std::all_of(part->slug.begin(), part->slug.end(), slugChar) || part->slug[0] == '-' ||
        part->slug[0] == '_')
        slug.fail("slug \"" + clipped(part->slug) + "\" must be lower-case letters, digits, '-' or '_'");
    if (auto s = doc.find("source")) {
        part->fileSource = {Provenance::Kind::Source, s->str()};
        part->fileSourceLoc = s->loc();
    }
    std::error_code ec;
    if (std::filesystem::is_regular_file(fileName, ec)) {
        const std::filesystem::path dir = std::filesystem::path(fileName).parent_path();
        part->sources = folderSources(dir.empty() ? std::string(".") : dir.string());
    }
    if (auto own = doc.find("sources"))
        mergeSources(part->sources, readSources(*own));

    readNetbox(doc, *part);

    if (auto rdt = doc.find("rdt")) {
        rdt->requireMap();
        part->kind = parseKind((*rdt)["kind"]);
        readFields(*rdt, *part, fieldsFor(part->kind), "");
        if (auto b = rdt->find("busbar_tap"))
            part->busbarTap = b->boolean();
        if (auto ou = rdt->find("ou_height")) {
            if (!part->slottable())
                ou->fail("a " + std::string(partKindName(part->kind)) + " does not take rack slots; remove ou_height");
            part->ouHeight = static_cast<int>(ou->quantity(Dimension::OpenU, Range{1, 60}));
        }
    }
    if (part->slottable() && part->ouHeight == 0) {
        if (auto u = doc.find("u_height")) {
            // NetBox height is in 44.45 mm EIA units; the part needs the OpenU slots that contain it.
            double units = 0;
            try {
                units = std::stod(u->str());
            } catch (const std::exception&) {
                u->fail("u_height must be a number of rack units");
            }
            if (!(units > 0) || units > 60)
                u->fail("u_height must be between 0.5 and 60 rack units");
            part->ouHeight = static_cast<int>(std::ceil(units * kEiaUnitM / kOpenUM - 1e-9));
        } else {
            doc.fail("a " + std::string(partKindName(part->kind)) +
                     " needs rdt.ou_height (e.g. \"2 OU\") or NetBox u_height");
        }
    }
    // Numbers without inline provenance inherit the file-level source.
    for (auto& [key, v] : part->values)
        if (v.provenance.kind == Provenance::Kind::None && part->fileSource.kind != Provenance::Kind::None)
            v.provenance = part->fileSource;
    for (auto& [key, c] : part->curves)
        if (c.provenance.kind == Provenance::Kind::None && part->fileSource.kind != Provenance::Kind::None)
            c.provenance = part->fileSource;
    checkConsistency(doc, *part);

    if (m_parts.count(part->slug))
        slug.fail("duplicate slug \"" + part->slug + "\" (also defined in " + m_parts[part->slug]->loc.file + ")");
    m_files.emplace_back(fileName, part->contentHash);
    const Part& ref = *part;
    m_parts[part->slug] = std::move(part);
    return ref;
}

void Catalog::resolve() const
{
    for (const auto& [slug, part] : m_parts) {
        for (const PartReference& r : partReferences()) {
            const std::string ref = part->text(r.field);
            if (ref.empty())
                continue;
            const SourceLoc where = part->textLoc(r.field);
            const Part& target = require(ref, where);
            if (target.kind != r.kind)
                throw InputError(where, "\"" + ref + "\" is a " + std::string(partKindName(target.kind)) +
                                            ", expected a " + std::string(partKindName(r.kind)));
        }
    }
}

const Part* Catalog::find(const std::string& slug) const
{
    const auto it = m_parts.find(slug);
    return it == m_parts.end() ? nullptr : it->second.get();
}

const Part& Catalog::require(const std::string& slug, const SourceLoc& where) const
{
    if (const Part* p = find(slug))
        return *p;
    throw InputError(where, "unknown catalog entry \"" + clipped(slug) + "\"" + didYouMean(slug, slugs()));
}

std::vector<std::string> Catalog::slugs() const
{
    std::vector<std::string> out;
    out.reserve(m_parts.size());
    for (const auto& [slug, part] : m_parts)
        out.push_back(slug);
    return out;
}

} // namespace rdt::core
