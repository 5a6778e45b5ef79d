#pragma once
/// \file Rules.h
/// The rule engine, in the manner of KiCad's DRC: rules with stable ids, severities and
/// spec citations; violations naming rule, subject, measured value, limit and unit;
/// profiles that choose rules and severities; waivers from the design file.

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Progress.h"
#include "core/ResultStore.h"

namespace rdt::core {

enum class Severity { Info, Warning, Error };
std::string_view severityName(Severity s);
/// Parse `info`, `warning`, `error`; nullopt otherwise.
std::optional<Severity> parseSeverity(std::string_view s);

/// A named, unit-carrying constraint value of a rule that profiles may override.
struct Constraint {
    double value = 0.0; ///< SI
    Dimension dim = Dimension::Ratio;
};

/// What a rule looks at: a whole design, or one catalog part (`rdt validate PART.yaml`).
enum class RuleTarget { Design, Part };

/// Static description of a rule.
struct RuleInfo {
    std::string id;                                ///< stable key, e.g. `orv3.rack.mass`
    std::string title;                             ///< one line
    Severity severity = Severity::Error;           ///< default severity
    std::string spec;                              ///< document and section the rule comes from, with source key
    std::string description;                       ///< what is checked and how
    std::map<std::string, Constraint> constraints; ///< defaults, overridable in profiles
    RuleTarget target = RuleTarget::Design;
};

/// One broken rule on one subject. `measured` and `limit` are in `unit` (NaN when not numeric).
struct Violation {
    std::string rule;
    Severity severity = Severity::Error;
    std::string subject; ///< id of the offending object (`hall1/row1/rack1/gt0`)
    std::string message;
    double measured = NAN;
    double limit = NAN;
    std::string unit;
    SourceLoc loc; ///< where the subject is defined in the input
    bool waived = false;
    std::string justification; ///< the waiver's text when waived
};

/// A rule's settings after applying the profile.
struct RuleConfig {
    bool enabled = true;
    Severity severity = Severity::Error;
    std::map<std::string, Constraint> constraints;
};

/// What a check sees: the design (or, for part rules, the part and the reference catalog),
/// its rule's settings, and a sink for violations.
class CheckContext {
public:
    CheckContext(const Design& design, const RuleInfo& rule, const RuleConfig& config, std::vector<Violation>& out,
                 ResultStore* results = nullptr);
    CheckContext(const Part& part, const Catalog& reference, const RuleInfo& rule, const RuleConfig& config,
                 std::vector<Violation>& out);
    /// Analysis results of this run; rules may add what they compute. Never null for design rules.
    ResultStore& results() const { return *m_results; }
    /// The design; only for RuleTarget::Design rules.
    const Design& design() const { return *m_design; }
    /// The part under validation; only for RuleTarget::Part rules.
    const Part& part() const { return *m_part; }
    /// Shipped catalog (source keys, referenced parts); only for RuleTarget::Part rules.
    const Catalog& reference() const { return *m_reference; }
    /// SI value of a constraint (profile override or the rule's default). Throws std::logic_error if unknown.
    double constraint(const std::string& name) const;
    /// Record a violation of this rule.
    void report(std::string subject, std::string message, double measured, double limit, std::string unit,
                SourceLoc loc);

private:
    const Design* m_design = nullptr;
    const Part* m_part = nullptr;
    const Catalog* m_reference = nullptr;
    ResultStore* m_results = nullptr;
    const RuleInfo& m_rule;
    const RuleConfig& m_config;
    std::vector<Violation>& m_out;
};

using CheckFn = std::function<void(CheckContext&)>;

/// All rules known to this build. Each library adds its own through `registerChecks()`.
class CheckRegistry {
public:
    struct Entry {
        RuleInfo info;
        CheckFn check;
    };
    /// Add a rule. Throws std::logic_error on a duplicate id (a programming error).
    void add(RuleInfo info, CheckFn check);
    const std::vector<Entry>& entries() const { return m_entries; }
    const RuleInfo* find(const std::string& id) const;
    std::vector<std::string> ids() const;

private:
    std::vector<Entry> m_entries;
};

/// A rule profile (`data/rules/NAME.yaml`): which rules run, at what severity, with which limits.
class Profile {
public:
    std::string name = "default";
    std::string file; ///< the file it was read from: a name is the profile's word, the file is what ran
    std::string description;
    /// Rules not named in the profile run at their defaults unless `onlyListed`.
    bool onlyListed = false;
    /// `default_severity:`: the severity of every rule the profile does not set one for (ocp-strict:
    /// error, so that rules added later are errors there too); unset: each rule's own default.
    std::optional<Severity> defaultSeverity;
    /// The power basis this profile budgets at (`power_basis:`); unset: the design's, else nameplate.
    std::optional<PowerBasis> powerBasis;
    /// A constraint of a rule after this profile's overrides (the rule's default otherwise).
    double constraint(const RuleInfo& rule, const std::string& key) const;

    /// Load and check against the registry (unknown rule ids and constraints are errors).
    static Profile load(const std::string& path, const CheckRegistry& registry);
    static Profile loadText(const std::string& text, const std::string& fileName, const CheckRegistry& registry);
    RuleConfig configFor(const RuleInfo& rule) const;

private:
    std::map<std::string, RuleConfig> m_rules;
};

/// Counts by severity of the unwaived violations.
struct CheckCounts {
    std::size_t errors = 0, warnings = 0, infos = 0, waived = 0;
};

/// Run every enabled rule on the design, apply waivers, return violations in rule order.
/// `results` carries analyses already run (and receives those rules compute); a private store is
/// used when null.
std::vector<Violation> runChecks(const Design& design, const CheckRegistry& registry, const Profile& profile,
                                 Progress& progress, ResultStore* results = nullptr);
/// Run every enabled part rule on one catalog part.
std::vector<Violation> runPartChecks(const Part& part, const Catalog& reference, const CheckRegistry& registry,
                                     const Profile& profile);
CheckCounts countViolations(const std::vector<Violation>& violations);
/// The design's waivers that match none of `violations`: a subject mistyped or gone from the
/// layout, or a waiver for what only another scenario violates. Reported, never an error. Only
/// waivers for rules this run has (a registered design rule the profile enables: an `hil.*` waiver
/// is `rdt hil`'s, a rule the profile turns off never runs); `target.*` verdicts are not waivable.
std::vector<Waiver> unusedWaivers(const Design& design, const std::vector<Violation>& violations,
                                  const CheckRegistry& registry, const Profile& profile);

} // namespace rdt::core
