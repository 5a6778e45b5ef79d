#include "core/PartChecks.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace rdt::core {
namespace {

constexpr double kZeroCelsiusK = 273.15;

/// A plain number in three significant digits ("22.3").
std::string threeDigits(double x)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", x);
    return buf;
}

SourceLoc fieldLoc(const Part& p, const std::string& field, const SourcedValue& v)
{
    SourceLoc loc = v.loc.file.empty() ? p.loc : v.loc;
    if (loc.path.empty())
        loc.path = field;
    return loc;
}

SourceLoc curveLoc(const Part& p, const std::string& field, const Curve& c)
{
    SourceLoc loc = c.loc.file.empty() ? p.loc : c.loc;
    if (loc.path.empty())
        loc.path = field;
    return loc;
}

void checkProvenance(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const std::string hint = " has neither a source nor an estimate (add source: \"[KEY]\" or write "
                             "{value: ..., estimate: \"how it was derived\"})";
    for (const auto& [field, v] : p.values)
        if (v.provenance.kind == Provenance::Kind::None)
            ctx.report(p.slug + "/" + field, p.slug + ": " + field + hint, NAN, NAN, "", fieldLoc(p, field, v));
    for (const auto& [field, c] : p.curves)
        if (c.provenance.kind == Provenance::Kind::None)
            ctx.report(p.slug + "/" + field, p.slug + ": " + field + hint, NAN, NAN, "", curveLoc(p, field, c));
}

/// Every key the part may cite: the reference catalog's and the part's own.
std::vector<std::string> knownKeys(const CheckContext& ctx)
{
    std::vector<std::string> all;
    for (const auto& [key, entry] : ctx.reference().sourceKeys())
        all.push_back(key);
    for (const auto& [key, entry] : ctx.part().sources)
        if (!ctx.reference().sourceKeys().count(key))
            all.push_back(key);
    return all;
}

void checkSourceKeys(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const std::vector<std::string> all = knownKeys(ctx);
    auto checkText = [&](const std::string& text, const std::string& field, const SourceLoc& loc) {
        for (const std::string& k : Catalog::citedKeys(text))
            if (std::find(all.begin(), all.end(), k) == all.end())
                ctx.report(p.slug + "/" + field,
                           p.slug + ": source key [" + clipped(k) +
                               "] is defined neither in the catalog's sources.yaml nor in the part's own sources "
                               "(a sources.yaml beside it, or a sources: map in it)" +
                               didYouMean(k, all),
                           NAN, NAN, "", loc);
    };
    checkText(p.fileSource.text, "source", p.fileSourceLoc.file.empty() ? p.loc : p.fileSourceLoc);
    for (const auto& [field, v] : p.values)
        if (v.provenance.kind == Provenance::Kind::Source && v.provenance.text != p.fileSource.text)
            checkText(v.provenance.text, field, fieldLoc(p, field, v));
    for (const auto& [field, c] : p.curves)
        if (c.provenance.kind == Provenance::Kind::Source && c.provenance.text != p.fileSource.text)
            checkText(c.provenance.text, field, curveLoc(p, field, c));
}

void checkSourceConflicts(CheckContext& ctx)
{
    const Part& p = ctx.part();
    for (const auto& [key, own] : p.sources) {
        const auto it = ctx.reference().sourceKeys().find(key);
        if (it != ctx.reference().sourceKeys().end() && it->second.title != own.title)
            ctx.report(p.slug + "/sources/" + key,
                       p.slug + ": source key " + key + " means \"" + own.title + "\" here but \"" + it->second.title +
                           "\" in the catalog (" + it->second.loc.position() + "); choose a new key",
                       NAN, NAN, "", own.loc);
    }
}

void checkSize(CheckContext& ctx, const char* field, const char* constraint)
{
    const Part& p = ctx.part();
    const auto size = p.find(field);
    const double limit = ctx.constraint(constraint);
    if (p.slottable() && size && *size > limit + 1e-9)
        ctx.report(p.slug,
                   p.slug + ": " + field + " " + formatQuantityBeside(*size, limit, Dimension::Length) + " exceeds " +
                       formatQuantityBeside(limit, *size, Dimension::Length),
                   *size * 1e3, limit * 1e3, "mm", fieldLoc(p, field, p.values.at(field)));
}

void checkMassKnown(CheckContext& ctx)
{
    const Part& p = ctx.part();
    if (p.slottable() && !p.find("weight"))
        ctx.report(p.slug, p.slug + " has no weight; rack payload checks will count it as 0 kg", NAN, NAN, "kg", p.loc);
}

void checkPowerKnown(CheckContext& ctx)
{
    const Part& p = ctx.part();
    if (p.busbarTap && !p.find("power.max"))
        ctx.report(p.slug, p.slug + " draws from the busbar but has no power.max", NAN, NAN, "W", p.loc);
}

/// The parts a part under validation may name: the reference catalog, then the other part files in
/// its folder (parts contributed together), loaded on first need. A neighbour that does not load is
/// listed, not fatal: it is not the part under validation.
class PartFinder {
public:
    explicit PartFinder(const CheckContext& ctx) : m_reference(ctx.reference()), m_part(ctx.part()) {}

    const Part* find(const std::string& slug)
    {
        if (const Part* p = m_reference.find(slug))
            return p;
        loadNeighbours();
        return m_neighbours.find(slug);
    }

    std::vector<std::string> slugs()
    {
        loadNeighbours();
        std::vector<std::string> all = m_reference.slugs();
        for (const std::string& s : m_neighbours.slugs())
            all.push_back(s);
        return all;
    }

    const std::vector<std::string>& unreadable()
    {
        loadNeighbours();
        return m_unreadable;
    }

private:
    void loadNeighbours()
    {
        namespace fs = std::filesystem;
        if (m_loaded)
            return;
        m_loaded = true;
        std::error_code ec;
        const fs::path self(m_part.loc.file);
        if (!fs::is_regular_file(self, ec))
            return;
        const fs::path dir = self.has_parent_path() ? self.parent_path() : fs::path(".");
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() && e.path().extension() == ".yaml" && e.path().filename() != "sources.yaml" &&
                !fs::equivalent(e.path(), self, ec))
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& f : files) {
            try {
                m_neighbours.loadFile(f.string());
            } catch (const InputError&) {
                m_unreadable.push_back(f.filename().string());
            }
        }
    }

    const Catalog& m_reference;
    const Part& m_part;
    Catalog m_neighbours;
    std::vector<std::string> m_unreadable;
    bool m_loaded = false;
};

void checkReferences(CheckContext& ctx)
{
    const Part& p = ctx.part();
    PartFinder finder(ctx);
    for (const PartReference& r : partReferences()) {
        const std::string slug = p.text(r.field);
        if (slug.empty())
            continue;
        const std::string subject = p.slug + "/" + r.field;
        const Part* target = finder.find(slug);
        if (!target) {
            std::string message = p.slug + ": " + r.field + " names \"" + slug +
                                  "\", which is neither in the catalog nor among the parts beside this file" +
                                  didYouMean(slug, finder.slugs());
            if (!finder.unreadable().empty()) {
                message += "; files beside it that did not load as parts:";
                for (const std::string& f : finder.unreadable())
                    message += " " + f;
            }
            ctx.report(subject, message, NAN, NAN, "", p.textLoc(r.field));
        } else if (target->kind != r.kind) {
            ctx.report(subject,
                       p.slug + ": " + r.field + " names \"" + slug + "\", a " +
                           std::string(partKindName(target->kind)) + ", but needs a " +
                           std::string(partKindName(r.kind)),
                       NAN, NAN, "", p.textLoc(r.field));
        }
    }
}

/// True when the part moves air itself (it has fans or declares an airflow direction).
bool airCooled(const Part& p)
{
    return p.value("fans.count", 0) > 0 || (!p.airflow.empty() && p.airflow != "passive");
}

void checkPowerPerOu(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const auto max = p.find("power.max");
    if (!max || p.ouHeight <= 0 || !airCooled(p))
        return;
    const double perOu = *max / p.ouHeight;
    const double limit = ctx.constraint("max_per_ou");
    if (perOu > limit * (1 + 1e-9))
        ctx.report(p.slug,
                   p.slug + ": power.max " + formatQuantity(*max, Dimension::Power) + " in " +
                       std::to_string(p.ouHeight) + " OU is " + formatQuantity(perOu, Dimension::Power) +
                       " per OU; air cannot carry more than about " + formatQuantity(limit, Dimension::Power) +
                       " per OU out of an ORv3 slot (a typo, a wrong unit, or a liquid-cooled part?)",
                   perOu / 1e3, limit / 1e3, "kW", fieldLoc(p, "power.max", p.values.at("power.max")));
}

/// The part's named components at full load, and how they add up ("8 × 700 W GPUs + ...").
struct NamedPower {
    double watts = 0.0;
    std::string breakdown;

    void add(double count, double each, const std::string& what)
    {
        if (!(count > 0) || !(each > 0))
            return;
        watts += count * each;
        breakdown += (breakdown.empty() ? "" : " + ") + std::to_string(static_cast<int>(count)) + " × " +
                     formatQuantity(each, Dimension::Power) + " " + what;
    }
};

NamedPower namedPower(const Part& p, PartFinder& finder)
{
    NamedPower n;
    auto component = [&](const char* field) -> const Part* {
        const std::string slug = p.text(field);
        return slug.empty() ? nullptr : finder.find(slug);
    };
    if (const Part* gpu = component("gpus.part"))
        n.add(p.value("gpus.count", 0), gpu->value("tdp", 0), "GPUs (" + gpu->slug + " TDP)");
    n.add(p.value("cpus.count", 0), p.value("cpus.tdp", 0), "CPUs");
    if (const Part* nic = component("nics.part"))
        n.add(p.value("nics.count", 0), nic->value("power.max", 0), "NICs (" + nic->slug + ")");
    n.add(p.value("fans.count", 0), p.value("fans.power", 0), "fans");
    n.add(1, p.value("power.base_max", 0), "platform (power.base_max)");
    return n;
}

/// Piecewise-linear y(x) through sorted points, held flat beyond the ends.
double interpolate(const std::vector<std::pair<double, double>>& pts, double x)
{
    if (x <= pts.front().first)
        return pts.front().second;
    for (std::size_t i = 1; i < pts.size(); ++i)
        if (x <= pts[i].first) {
            const auto& [x0, y0] = pts[i - 1];
            const auto& [x1, y1] = pts[i];
            return x1 > x0 ? y0 + (y1 - y0) * (x - x0) / (x1 - x0) : y1;
        }
    return pts.back().second;
}

void checkPowerComponents(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const auto max = p.find("power.max");
    if (!max)
        return;
    PartFinder finder(ctx);
    NamedPower named = namedPower(p, finder);
    if (named.watts <= 0)
        return;
    // power.max is what the part draws from its supply: the named components' output over the
    // part's own conversion efficiency at that load, where the catalog gives the curve.
    if (const Curve* curve = p.curve("conversion_efficiency"); curve && !curve->points.empty()) {
        const double rating = p.value("conversion_rating", named.watts);
        const double eff = interpolate(curve->points, named.watts / rating);
        if (eff > 0 && eff <= 1) {
            named.watts /= eff;
            named.breakdown += ", over " + threeDigits(100.0 * eff) + " % conversion efficiency";
        }
    }
    const SourceLoc loc = fieldLoc(p, "power.max", p.values.at("power.max"));
    const std::string maxText = p.slug + ": power.max " + formatQuantity(*max, Dimension::Power);
    const std::string namedText = formatQuantity(named.watts, Dimension::Power) + " (" + named.breakdown + ")";
    const double ratio = ctx.constraint("max_ratio");
    if (named.watts > *max * (1 + 1e-9))
        ctx.report(p.slug, maxText + " is below what its named components draw at full load: " + namedText,
                   named.watts / 1e3, *max / 1e3, "kW", loc);
    else if (*max > ratio * named.watts * (1 + 1e-9))
        ctx.report(p.slug,
                   maxText + " is " + threeDigits(*max / named.watts) + " times its named components' " + namedText +
                       "; more than " + threeDigits(ratio) + " times is implausible (a typo or a wrong unit?)",
                   *max / 1e3, ratio * named.watts / 1e3, "kW", loc);
}

void checkFanSetpoint(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const auto it = p.values.find("fans.setpoint");
    if (it == p.values.end())
        return;
    const double setpoint = it->second.si;
    const double lo = ctx.constraint("min_setpoint"), hi = ctx.constraint("max_setpoint");
    const std::string written = it->second.written.empty() ? formatQuantity(setpoint, Dimension::Temperature)
                                                           : "\"" + it->second.written + "\" (" +
                                                                 formatQuantity(setpoint, Dimension::Temperature) + ")";
    const SourceLoc loc = fieldLoc(p, "fans.setpoint", it->second);
    if (setpoint < lo || setpoint > hi) {
        ctx.report(p.slug,
                   p.slug + ": fans.setpoint " + written + " is outside the plausible " +
                       formatQuantity(lo, Dimension::Temperature) + " … " + formatQuantity(hi, Dimension::Temperature) +
                       " for a component temperature that fan control holds (degF for degC?)",
                   setpoint - kZeroCelsiusK, (setpoint < lo ? lo : hi) - kZeroCelsiusK, "degC", loc);
        return;
    }
    PartFinder finder(ctx);
    const std::string gpuSlug = p.text("gpus.part");
    const Part* gpu = gpuSlug.empty() ? nullptr : finder.find(gpuSlug);
    const auto gpuMax = gpu ? gpu->find("max_operating_temp") : std::nullopt;
    if (gpuMax && setpoint > *gpuMax)
        ctx.report(p.slug,
                   p.slug + ": fans.setpoint " + written + " is above " + gpu->slug + "'s max_operating_temp " +
                       formatQuantity(*gpuMax, Dimension::Temperature) +
                       ": fan control would let the GPUs pass their limit before speeding up",
                   setpoint - kZeroCelsiusK, *gpuMax - kZeroCelsiusK, "degC", loc);
}

void checkTemperatureRange(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const double lo = ctx.constraint("min_temp"), hi = ctx.constraint("max_temp");
    for (const auto& [field, v] : p.values) {
        if (v.count || v.dim != Dimension::Temperature || (v.si >= lo && v.si <= hi))
            continue;
        ctx.report(p.slug + "/" + field,
                   p.slug + ": " + field + " " + formatQuantity(v.si, Dimension::Temperature) +
                       " is outside the physical range of rack hardware, " +
                       formatQuantity(lo, Dimension::Temperature) + " … " + formatQuantity(hi, Dimension::Temperature) +
                       " (a wrong unit?)",
                   v.si - kZeroCelsiusK, (v.si < lo ? lo : hi) - kZeroCelsiusK, "degC", fieldLoc(p, field, v));
    }
}

void registerPlausibilityChecks(CheckRegistry& registry)
{
    const auto part = RuleTarget::Part;
    registry.add({"catalog.power.per_ou",
                  "Air-cooled parts draw a plausible power per OU",
                  Severity::Warning,
                  "estimate from the ORv3 bay [R2] and the sensible-heat equation [T3]: a 537 mm × 48 mm OU face at "
                  "about 5 m/s moves 0.13 m³/s (270 CFM), which at a 30 K rise carries about 4.7 kW; the densest "
                  "air-cooled 8-GPU systems draw about 1.3 kW per OU (Grand Teton estimate, about 10 kW in 8 OU)",
                  "power.max divided by the OU height of a part that moves its own air (fans, or an airflow "
                  "direction) exceeds what air can carry out of one OU.",
                  {{"max_per_ou", {5000.0, Dimension::Power}}},
                  part},
                 checkPowerPerOu);
    registry.add({"catalog.power.components",
                  "power.max agrees with the part's named components",
                  Severity::Warning,
                  "rdt catalog format: a chassis' power.max covers its GPUs at TDP, CPUs, NICs, fans and platform; "
                  "the factor of 4 above them is an estimate (Grand Teton: about 10 kW against 8.0 kW named)",
                  "The named components at full load (gpus.count × the GPU's tdp, cpus.count × cpus.tdp, nics.count "
                  "× the NIC's power.max, fans.count × fans.power, power.base_max; over the part's "
                  "conversion_efficiency at that load where the catalog gives one) exceed power.max, or power.max "
                  "is more than max_ratio times their sum.",
                  {{"max_ratio", {4.0, Dimension::Ratio}}},
                  part},
                 checkPowerComponents);
    registry.add({"catalog.fan.setpoint",
                  "Fan-control setpoint is a plausible component temperature",
                  Severity::Warning,
                  "Grand Teton holds its GPUs at 79 °C [G8]; a setpoint must lie above the warmest allowable inlet "
                  "(ASHRAE A2 35 °C, A4 45 °C [T1]) and below the component's limits; 40–100 °C is an estimate",
                  "fans.setpoint lies outside min_setpoint … max_setpoint, or above the max_operating_temp of the "
                  "chassis' GPU.",
                  {{"min_setpoint", {40.0 + kZeroCelsiusK, Dimension::Temperature}},
                   {"max_setpoint", {100.0 + kZeroCelsiusK, Dimension::Temperature}}},
                  part},
                 checkFanSetpoint);
    registry.add({"catalog.temperature.range",
                  "Temperatures lie in the physical range of rack hardware",
                  Severity::Warning,
                  "estimate: storage and operating ranges of IT hardware start at about −40 °C; silicon junction "
                  "limits end at 105–150 °C (H100 shuts down at 92 °C [C5])",
                  "A temperature field of a part lies outside min_temp … max_temp: usually a wrong unit (K for "
                  "degC, degF for degC).",
                  {{"min_temp", {-40.0 + kZeroCelsiusK, Dimension::Temperature}},
                   {"max_temp", {150.0 + kZeroCelsiusK, Dimension::Temperature}}},
                  part},
                 checkTemperatureRange);
}

} // namespace

void registerPartChecks(CheckRegistry& registry)
{
    const auto part = RuleTarget::Part;
    registry.add({"catalog.provenance",
                  "Every catalog number states its source or estimate",
                  Severity::Warning,
                  "rdt catalog format (docs/catalog-format.md)",
                  "A number or curve in a catalog part has no file-level source, inline source or estimate.",
                  {},
                  part},
                 checkProvenance);
    registry.add({"catalog.source.unknown",
                  "Cited source keys exist",
                  Severity::Error,
                  "rdt catalog format; data/catalog/sources.yaml",
                  "A source: field cites a key that neither data/catalog/sources.yaml nor the part's own sources (a "
                  "sources.yaml beside the part file, or a sources: map in it) define.",
                  {},
                  part},
                 checkSourceKeys);
    registry.add({"catalog.source.conflict",
                  "A part's own source keys do not redefine the catalog's",
                  Severity::Error,
                  "rdt catalog format; data/catalog/sources.yaml",
                  "A key in the part's own sources means another document than the same key in "
                  "data/catalog/sources.yaml.",
                  {},
                  part},
                 checkSourceConflicts);
    registry.add({"catalog.part.reference",
                  "Parts a part names exist and are of the right kind",
                  Severity::Error,
                  "rdt catalog format (docs/catalog-format.md)",
                  "gpus.part or nics.part names a slug that is neither in the catalog nor among the part files in "
                  "the same folder, or names a part of another kind.",
                  {},
                  part},
                 checkReferences);
    registry.add({"catalog.part.width",
                  "Part fits the 21-inch ORv3 bay",
                  Severity::Error,
                  "ORv3 Base Spec [R2]: 537 mm IT opening",
                  "A rack part is wider than the ORv3 equipment bay.",
                  {{"bay_width", {0.537, Dimension::Length}}},
                  part},
                 [](CheckContext& c) { checkSize(c, "width", "bay_width"); });
    registry.add({"catalog.part.depth",
                  "Part fits the deepest ORv3 frame",
                  Severity::Error,
                  "ORv3 HPR frame depth 48 in (1,219 mm) [R5]",
                  "A rack part is deeper than the deepest ORv3 frame.",
                  {{"frame_depth", {1.219, Dimension::Length}}},
                  part},
                 [](CheckContext& c) { checkSize(c, "depth", "frame_depth"); });
    registry.add({"catalog.part.weight",
                  "Rack parts state their weight",
                  Severity::Warning,
                  "Meta ORv3 frame payload limit 1,400 kg needs part weights [R3]",
                  "A part that takes rack slots has no weight.",
                  {},
                  part},
                 checkMassKnown);
    registry.add({"catalog.part.power",
                  "Busbar-fed parts state their maximum power",
                  Severity::Warning,
                  "Open Rack V3 power budget [P1][R8]",
                  "A part with busbar_tap has no power.max.",
                  {},
                  part},
                 checkPowerKnown);
    registerPlausibilityChecks(registry);
}

} // namespace rdt::core
