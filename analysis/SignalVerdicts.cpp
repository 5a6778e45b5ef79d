#include "analysis/SignalVerdicts.h"

#include <map>
#include <set>

namespace rdt::analysis {

std::shared_ptr<const signal::SignalResult> signalWithRuleVerdicts(std::shared_ptr<const signal::SignalResult> sig,
                                                                   const std::vector<core::Violation>& violations)
{
    // Per class: the rules that failed on it, and whether any of them is an error.
    std::map<std::string, std::pair<std::set<std::string>, bool>> failed;
    for (const core::Violation& v : violations) {
        // "link class ID: ..." for a class, "link ID: ..." for one port-to-port link (until 2026-12-06
        // a port-to-port link too short for its run kept "pass" here); an id that is no link's
        // matches nothing below.
        static const std::string prefix = "link class ", subject = "links/";
        if (v.waived || v.severity == core::Severity::Info)
            continue;
        std::string id;
        if (v.subject.rfind(subject, 0) == 0)
            id = v.subject.substr(subject.size()); // the class's own subject: exact
        else if (v.message.rfind(prefix, 0) == 0) {
            const std::size_t end = v.message.find_first_of(": (", prefix.size());
            id = v.message.substr(prefix.size(), end - prefix.size());
        } else
            continue;
        auto& entry = failed[id];
        entry.first.insert(v.rule);
        entry.second = entry.second || v.severity == core::Severity::Error;
    }
    if (failed.empty())
        return sig;
    auto out = std::make_shared<signal::SignalResult>(*sig);
    for (signal::LinkVerdict& l : out->links) {
        const auto it = failed.find(l.id);
        if (it == failed.end())
            continue;
        std::string rules;
        for (const std::string& r : it->second.first)
            rules += (rules.empty() ? "" : ", ") + r;
        // An error fails the class; warnings alone (a negotiated-down rate, a fallback to a slower
        // lane rate at which it closes) are said beside its verdict.
        if (it->second.second || (!l.pass && l.laneRateGbps <= 0)) {
            l.pass = false;
            l.ruleFailed = true;
            l.verdict = "fail (" + rules + ")";
        } else {
            l.warned = true;
            l.verdict += ", warning (" + rules + ")";
        }
    }
    return out;
}

void failLinkEnds(std::vector<core::PartField>& fields, const core::Design& design,
                  const std::vector<core::Violation>& violations)
{
    core::PartField* margin = nullptr;
    for (core::PartField& f : fields)
        if (f.name == "Link margin")
            margin = &f;
    if (!margin)
        return;
    for (const core::Violation& v : violations) {
        if (v.waived || v.severity != core::Severity::Error ||
            !(v.rule.rfind("signal.", 0) == 0 || v.rule.rfind("link.", 0) == 0))
            continue;
        for (std::size_t r = 0; r < design.racks.size() && r < margin->values.size(); ++r)
            for (std::size_t s = 0; s < design.racks[r].slots.size() && s < margin->values[r].size(); ++s) {
                const std::string& id = design.racks[r].slots[s].id;
                if (v.subject == id ||
                    (v.subject.size() > id.size() && v.subject.compare(0, id.size(), id) == 0 && v.subject[id.size()] == '/'))
                    margin->values[r][s] = -INFINITY;
            }
    }
}

} // namespace rdt::analysis
