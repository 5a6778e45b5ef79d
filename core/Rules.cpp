#include "core/Rules.h"

#include "core/Error.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace rdt::core {

namespace {

/// What a profile may set a rule's constraint to: never negative (a negative derating, ride-through
/// or margin turns its comparison round and passes what it should fail); shares of a whole at
/// most 100 %.
Range constraintRange(const std::string& name)
{
    if (name == "breaker_derating" || name == "min_rci")
        return {0.0, 1.0};
    return {};
}

} // namespace

std::string_view severityName(Severity s)
{
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "error";
}

std::optional<Severity> parseSeverity(std::string_view s)
{
    if (s == "info")
        return Severity::Info;
    if (s == "warning")
        return Severity::Warning;
    if (s == "error")
        return Severity::Error;
    return std::nullopt;
}

CheckContext::CheckContext(const Design& design, const RuleInfo& rule, const RuleConfig& config,
                           std::vector<Violation>& out, ResultStore* results)
    : m_design(&design), m_results(results), m_rule(rule), m_config(config), m_out(out)
{
}

CheckContext::CheckContext(const Part& part, const Catalog& reference, const RuleInfo& rule, const RuleConfig& config,
                           std::vector<Violation>& out)
    : m_part(&part), m_reference(&reference), m_rule(rule), m_config(config), m_out(out)
{
}

double CheckContext::constraint(const std::string& name) const
{
    const auto it = m_config.constraints.find(name);
    if (it == m_config.constraints.end())
        throw std::logic_error("rule " + m_rule.id + " has no constraint " + name);
    return it->second.value;
}

void CheckContext::report(std::string subject, std::string message, double measured, double limit, std::string unit,
                          SourceLoc loc)
{
    Violation v;
    v.rule = m_rule.id;
    v.severity = m_config.severity;
    v.subject = std::move(subject);
    v.message = std::move(message);
    v.measured = measured;
    v.limit = limit;
    v.unit = std::move(unit);
    v.loc = std::move(loc);
    m_out.push_back(std::move(v));
}

void CheckRegistry::add(RuleInfo info, CheckFn check)
{
    if (find(info.id))
        throw std::logic_error("rule registered twice: " + info.id);
    m_entries.push_back({std::move(info), std::move(check)});
}

const RuleInfo* CheckRegistry::find(const std::string& id) const
{
    for (const auto& e : m_entries)
        if (e.info.id == id)
            return &e.info;
    return nullptr;
}

std::vector<std::string> CheckRegistry::ids() const
{
    std::vector<std::string> out;
    for (const auto& e : m_entries)
        out.push_back(e.info.id);
    return out;
}

Profile Profile::load(const std::string& path, const CheckRegistry& registry)
{
    return loadText(readTextFile(path), path, registry);
}

Profile Profile::loadText(const std::string& text, const std::string& fileName, const CheckRegistry& registry)
{
    const Cursor doc = Cursor::parse(text, fileName);
    doc.allowKeys({"name", "description", "only_listed", "default_severity", "power_basis", "rules"});
    Profile p;
    p.name = doc["name"].str();
    if (auto d = doc.find("description"))
        p.description = d->str();
    if (auto o = doc.find("only_listed"))
        p.onlyListed = o->boolean();
    if (auto d = doc.find("default_severity")) {
        p.defaultSeverity = parseSeverity(d->str());
        if (!p.defaultSeverity)
            d->fail("default_severity must be info, warning or error");
    }
    if (auto b = doc.find("power_basis")) {
        p.powerBasis = parsePowerBasis(b->str());
        if (!p.powerBasis)
            b->fail("unknown power basis \"" + b->str() + "\" (nameplate, peak or modelled)" +
                    didYouMean(b->str(), {"nameplate", "peak", "modelled"}));
    }
    if (auto rules = doc.find("rules")) {
        for (const auto& [id, body] : rules->entries()) {
            const RuleInfo* info = registry.find(id);
            if (!info)
                body.fail("unknown rule \"" + id + "\"" + didYouMean(id, registry.ids()));
            RuleConfig cfg{true, p.defaultSeverity.value_or(info->severity), info->constraints};
            if (body.isScalar()) {
                // `rule.id: off` or `rule.id: warning`
                const std::string s = body.str();
                if (s == "off" || s == "false")
                    cfg.enabled = false;
                else if (auto sev = parseSeverity(s))
                    cfg.severity = *sev;
                else
                    body.fail("expected off, info, warning or error");
            } else {
                std::vector<std::string> keys = {"severity", "enabled"};
                for (const auto& [c, v] : info->constraints)
                    keys.push_back(c);
                body.allowKeys(keys);
                if (auto e = body.find("enabled"))
                    cfg.enabled = e->boolean();
                if (auto s = body.find("severity")) {
                    const auto sev = parseSeverity(s->str());
                    if (!sev)
                        s->fail("severity must be info, warning or error");
                    cfg.severity = *sev;
                }
                for (auto& [c, v] : cfg.constraints)
                    if (auto val = body.find(c))
                        v.value = val->quantity(v.dim, constraintRange(c));
            }
            p.m_rules[id] = cfg;
        }
    }
    p.file = fileName;
    // A profile under which no rule runs checks nothing, and a run under it is not a pass (an empty
    // `only_listed` profile passed a design with 21 errors, exit 0; trust trial, 2026-12-07).
    const std::vector<std::string> ids = registry.ids();
    if (!ids.empty() && std::none_of(ids.begin(), ids.end(), [&](const std::string& id) {
            const RuleInfo* info = registry.find(id);
            return info && p.configFor(*info).enabled;
        }))
        doc["name"].fail("profile " + p.name + " enables no rule: a run under it would check nothing, which is not a "
                                               "pass (list the rules to run, or drop only_listed)");
    return p;
}

RuleConfig Profile::configFor(const RuleInfo& rule) const
{
    const auto it = m_rules.find(rule.id);
    if (it != m_rules.end())
        return it->second;
    return RuleConfig{!onlyListed, defaultSeverity.value_or(rule.severity), rule.constraints};
}

double Profile::constraint(const RuleInfo& rule, const std::string& key) const
{
    const RuleConfig cfg = configFor(rule);
    const auto it = cfg.constraints.find(key);
    if (it == cfg.constraints.end())
        throw std::logic_error("rule " + rule.id + " has no constraint " + key);
    return it->second.value;
}

std::vector<Violation> runChecks(const Design& design, const CheckRegistry& registry, const Profile& profile,
                                 Progress& progress, ResultStore* results)
{
    ResultStore local;
    ResultStore& store = results ? *results : local;
    std::vector<Violation> out;
    const auto& entries = registry.entries();
    // A waiver for a rule rdt does not have waives nothing: a typo would go unnoticed.
    for (const Waiver& w : design.waivers) {
        std::vector<std::string> ids;
        bool known = false;
        for (const auto& e : entries) {
            ids.push_back(e.info.id);
            known = known || globMatch(w.rule, e.info.id);
        }
        if (!known) {
            // Rule ids are lower case: a capitalised one is named as what it meant.
            std::string lower = w.rule, hint;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
            for (const std::string& id : ids)
                if (lower != w.rule && globMatch(lower, id))
                    hint = " (rule ids are lower case: did you mean \"" + lower + "\"?)";
            throw InputError(w.loc, "waiver: no rule matches \"" + w.rule + "\"" +
                                        (hint.empty() ? didYouMean(w.rule, ids) : hint) + " (rdt rules lists them)");
        }
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (progress.isCancelled())
            throw Cancelled{};
        const auto& e = entries[i];
        if (e.info.target != RuleTarget::Design)
            continue;
        progress.update(static_cast<double>(i) / static_cast<double>(entries.size()), e.info.id);
        const RuleConfig cfg = profile.configFor(e.info);
        if (!cfg.enabled)
            continue;
        CheckContext ctx(design, e.info, cfg, out, &store);
        e.check(ctx);
    }
    for (Violation& v : out)
        for (const Waiver& w : design.waivers)
            if (w.matches(v.rule, v.subject)) {
                v.waived = true;
                v.justification = w.justification;
                break;
            }
    progress.update(1.0, "checks done");
    return out;
}

std::vector<Violation> runPartChecks(const Part& part, const Catalog& reference, const CheckRegistry& registry,
                                     const Profile& profile)
{
    std::vector<Violation> out;
    for (const auto& e : registry.entries()) {
        if (e.info.target != RuleTarget::Part)
            continue;
        const RuleConfig cfg = profile.configFor(e.info);
        if (!cfg.enabled)
            continue;
        CheckContext ctx(part, reference, e.info, cfg, out);
        e.check(ctx);
    }
    return out;
}

CheckCounts countViolations(const std::vector<Violation>& violations)
{
    CheckCounts c;
    for (const Violation& v : violations) {
        if (v.waived) {
            ++c.waived;
            continue;
        }
        switch (v.severity) {
        case Severity::Error: ++c.errors; break;
        case Severity::Warning: ++c.warnings; break;
        case Severity::Info: ++c.infos; break;
        }
    }
    return c;
}

std::vector<Waiver> unusedWaivers(const Design& design, const std::vector<Violation>& violations,
                                  const CheckRegistry& registry, const Profile& profile)
{
    std::vector<Waiver> out;
    for (const Waiver& w : design.waivers) {
        const auto& entries = registry.entries();
        const bool runs = std::any_of(entries.begin(), entries.end(), [&](const auto& e) {
            // hil.* rules judge a telemetry series, which only rdt hil reads.
            return e.info.target == RuleTarget::Design && e.info.id.rfind("hil.", 0) != 0 &&
                   globMatch(w.rule, e.info.id) && profile.configFor(e.info).enabled;
        });
        const bool used = std::any_of(violations.begin(), violations.end(), [&](const Violation& v) {
            return v.rule.rfind("target.", 0) != 0 && w.matches(v.rule, v.subject);
        });
        if (runs && !used)
            out.push_back(w);
    }
    return out;
}

} // namespace rdt::core
