#include "core/PartChecks.h"

namespace rdt::core {
namespace {

SourceLoc fieldLoc(const Part& p, const std::string& field, const SourcedValue& v)
{
    SourceLoc loc = v.loc.file.empty() ? p.loc : v.loc;
    if (loc.path.empty())
        loc.path = field;
    return loc;
}

void checkProvenance(CheckContext& ctx)
{
    const Part& p = ctx.part();
    for (const auto& [field, v] : p.values)
        if (v.provenance.kind == Provenance::Kind::None)
            ctx.report(p.slug + "/" + field,
                       p.slug + ": " + field +
                           " has neither a source nor an estimate (add source: \"[KEY]\" or write "
                           "{value: ..., estimate: \"how it was derived\"})",
                       NAN, NAN, "", fieldLoc(p, field, v));
}

void checkSourceKeys(CheckContext& ctx)
{
    const Part& p = ctx.part();
    const auto& keys = ctx.reference().sourceKeys();
    auto checkText = [&](const std::string& text, const std::string& field, const SourceLoc& loc) {
        for (const std::string& k : Catalog::citedKeys(text))
            if (!keys.count(k)) {
                std::vector<std::string> all;
                for (const auto& [key, title] : keys)
                    all.push_back(key);
                ctx.report(p.slug + "/" + field,
                           p.slug + ": source key [" + k + "] is not in sources.yaml" + didYouMean(k, all), NAN, NAN,
                           "", loc);
            }
    };
    checkText(p.fileSource.text, "source", p.loc);
    for (const auto& [field, v] : p.values)
        if (v.provenance.kind == Provenance::Kind::Source && v.provenance.text != p.fileSource.text)
            checkText(v.provenance.text, field, fieldLoc(p, field, v));
}

void checkSize(CheckContext& ctx, const char* field, const char* constraint)
{
    const Part& p = ctx.part();
    const auto size = p.find(field);
    const double limit = ctx.constraint(constraint);
    if (p.slottable() && size && *size > limit + 1e-9)
        ctx.report(p.slug,
                   p.slug + ": " + field + " " + formatQuantity(*size, Dimension::Length) + " exceeds " +
                       formatQuantity(limit, Dimension::Length),
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

} // namespace

void registerPartChecks(CheckRegistry& registry)
{
    const auto part = RuleTarget::Part;
    registry.add({"catalog.provenance",
                  "Every catalog number states its source or estimate",
                  Severity::Warning,
                  "rdt catalog format (docs/catalog-format.md)",
                  "A number in a catalog part has no file-level source, inline source or estimate.",
                  {},
                  part},
                 checkProvenance);
    registry.add({"catalog.source.unknown",
                  "Cited source keys exist",
                  Severity::Error,
                  "rdt catalog format; data/catalog/sources.yaml",
                  "A source: field cites a key that data/catalog/sources.yaml does not define.",
                  {},
                  part},
                 checkSourceKeys);
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
}

} // namespace rdt::core
