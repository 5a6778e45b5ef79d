// rdt catalog list, rdt rules and rdt catalog show: the catalog's and the rules' text (moved out of
// TextOutput.cpp, which keeps the check's report).
#include <cstdio>
#include <sstream>

#include "cli/TextOutput.h"

namespace rdt::cli {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

std::string catalogListText(const core::Catalog& catalog, const std::string& kind)
{
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-32s %-12s %4s  %s\n", "slug", "kind", "OU", "manufacturer / model");
    out << line;
    for (const std::string& slug : catalog.slugs()) {
        const core::Part& p = *catalog.find(slug);
        if (!kind.empty() && core::partKindName(p.kind) != kind)
            continue;
        const std::string ou = p.ouHeight ? std::to_string(p.ouHeight) : "-";
        std::snprintf(line, sizeof line, "%-32s %-12s %4s  %s %s\n", p.slug.c_str(),
                      std::string(core::partKindName(p.kind)).c_str(), ou.c_str(), p.manufacturer.c_str(),
                      p.model.c_str());
        out << line;
    }
    return out.str();
}

std::string rulesText(const core::CheckRegistry& registry, bool markdown)
{
    std::ostringstream out;
    if (markdown)
        out << "| rule | applies to | default | what | source |\n|---|---|---|---|---|\n";
    for (const auto& e : registry.entries()) {
        const char* target = e.info.target == core::RuleTarget::Design ? "design" : "part";
        if (markdown) {
            out << "| `" << e.info.id << "` | " << target << " | " << core::severityName(e.info.severity) << " | "
                << e.info.title << ". " << e.info.description;
            for (const auto& [name, c] : e.info.constraints)
                out << " Constraint `" << name << "` = " << core::formatQuantity(c.value, c.dim) << ".";
            out << " | " << e.info.spec << " |\n";
        } else {
            char line[160];
            std::snprintf(line, sizeof line, "%-26s %-7s %-8s %s\n", e.info.id.c_str(), target,
                          std::string(core::severityName(e.info.severity)).c_str(), e.info.title.c_str());
            out << line;
            // Its limits (what a profile sets) and its source, as --markdown gives them.
            std::string limits;
            for (const auto& [name, c] : e.info.constraints)
                limits += (limits.empty() ? "" : ", ") + name + " " + core::formatQuantity(c.value, c.dim, 4);
            if (!limits.empty())
                out << std::string(44, ' ') << "limits: " << limits << "\n";
            out << std::string(44, ' ') << "source: " << e.info.spec << "\n";
        }
    }
    return out.str();
}

std::string partText(const core::Part& p)
{
    std::ostringstream out;
    out << p.slug << " — " << p.manufacturer << " " << p.model << "\n";
    out << "  kind        " << core::partKindName(p.kind) << "\n";
    if (p.ouHeight)
        out << "  ou_height   " << p.ouHeight << " OU\n";
    if (!p.airflow.empty())
        out << "  airflow     " << p.airflow << "\n";
    out << "  busbar_tap  " << (p.busbarTap ? "yes" : "no") << "\n";
    if (!p.fileSource.text.empty())
        out << "  source      " << p.fileSource.text << "\n";
    out << "  file        " << p.loc.file << "\n";
    for (const auto& [field, v] : p.values) {
        char buf[64];
        const std::string value = !v.written.empty() ? v.written
                                  : v.count          ? number(v.si)
                                                     : core::formatQuantity(v.si, v.dim, 4);
        std::snprintf(buf, sizeof buf, "  %-22s %-16s", field.c_str(), value.c_str());
        out << buf;
        if (v.provenance.kind == core::Provenance::Kind::Estimate)
            out << "estimate: " << v.provenance.text;
        else if (v.provenance.kind == core::Provenance::Kind::Source)
            out << "source: " << v.provenance.text;
        else
            out << "(no source)";
        out << "\n";
    }
    for (const auto& [field, t] : p.texts)
        out << "  " << field << " = " << t << "\n";
    if (!p.interfaces.empty()) {
        out << "  interfaces  ";
        for (std::size_t i = 0; i < p.interfaces.size(); ++i)
            out << (i ? ", " : "") << p.interfaces[i].name;
        out << "\n";
    }
    return out.str();
}

} // namespace rdt::cli
