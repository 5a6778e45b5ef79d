#include "analysis/Compare.h"

#include "core/JsonNumber.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/Energy.h"
#include "analysis/Throughput.h"
#include "core/Units.h"

using rdt::core::jsonNumber;

namespace rdt::analysis {

CompareRow compareRow(const RunResult& run)
{
    CompareRow r;
    r.design = run.design.name;
    r.file = run.design.file;
    r.description = run.design.description;
    const ThroughputResult& t = *run.throughput;
    for (const GpuClass& g : t.classes) {
        const core::Part* part = run.design.catalog->find(g.gpu);
        const std::string name = part && !part->model.empty() ? part->model : g.gpu;
        if (r.gpu.find(name) == std::string::npos)
            r.gpu += (r.gpu.empty() ? "" : " + ") + name;
    }
    r.gpus = t.gpus;
    r.dtype16 = t.dtype16;
    r.mfu = t.mfu;
    r.peakEflops16 = t.peakPflops16 / 1e3;
    r.sustainedEflops16 = t.sustainedPflops16 / 1e3;
    const power::GroupPower& c = run.power->cluster;
    r.basis = std::string(core::powerBasisName(run.power->basis));
    r.itNameplateW = c.itLoadW;
    r.itModelledW = c.modelledLoadW;
    r.acInputW = c.acInputW;
    if (run.energy)
        r.gridW = run.energy->total.facilityW;
    r.eflopsPerMw = r.itModelledW > 0 ? r.sustainedEflops16 / (r.itModelledW / 1e6) : NAN;
    r.errors = static_cast<int>(core::countViolations(run.violations).errors);
    return r;
}

namespace {

std::string fmt(double v, const char* spec)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

std::string sig3(double v)
{
    return core::formatSignificant(v, 3);
}

std::string thousands(int n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string dtypeLabel(const std::string& d)
{
    std::string u;
    for (char ch : d)
        u += static_cast<char>(ch == '/' ? '/' : std::toupper(static_cast<unsigned char>(ch)));
    return u.empty() ? "-" : u;
}

/// The table's cells, header first.
std::vector<std::vector<std::string>> cells(const std::vector<CompareRow>& rows)
{
    std::vector<std::vector<std::string>> out = {{"design", "GPU", "GPUs", "IT MW (basis)", "IT MW (modelled)",
                                                  "grid MW", "16-bit", "peak EFLOPS", "sustained EFLOPS",
                                                  "EFLOPS per MW", "errors"}};
    for (const CompareRow& r : rows)
        // Three significant figures whatever the size: a 127 kW design is 0.127 MW, not 0.1.
        out.push_back({r.design, r.gpu.empty() ? "-" : r.gpu, thousands(r.gpus), sig3(r.itNameplateW / 1e6),
                       sig3(r.itModelledW / 1e6), sig3(r.gridW / 1e6), dtypeLabel(r.dtype16), sig3(r.peakEflops16),
                       sig3(r.sustainedEflops16), sig3(r.eflopsPerMw), std::to_string(r.errors)});
    return out;
}

std::string footnote(const std::vector<CompareRow>& rows)
{
    std::string mfu;
    for (const CompareRow& r : rows) {
        const std::string m = fmt(r.mfu * 100, "%.0f %%");
        if (mfu.find(m) == std::string::npos)
            mfu += (mfu.empty() ? "" : ", ") + m;
    }
    return "16-bit tensor: BF16, or FP16 on GPUs without BF16; dense peaks. Sustained = each GPU class's peak x its "
           "slowest GPU's clock under its caps, rack power and heat x MFU, summed over the classes (" +
           mfu +
           "). IT MW: busbar and AC-fed load on the budget's basis (nameplate unless the design says otherwise) and "
           "at the modelled draw; grid MW = modelled IT AC x PUE where the design has facility:. EFLOPS per MW: "
           "sustained over modelled IT MW.";
}

} // namespace

std::string compareText(const std::vector<CompareRow>& rows)
{
    const auto c = cells(rows);
    std::vector<std::size_t> width(c[0].size(), 0);
    for (const auto& row : c)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    std::ostringstream out;
    for (std::size_t k = 0; k < c.size(); ++k) {
        for (std::size_t i = 0; i < c[k].size(); ++i) {
            const bool left = i < 2 || i == 6;
            const std::string pad(width[i] - c[k][i].size(), ' ');
            out << (i ? "  " : "") << (left ? c[k][i] + pad : pad + c[k][i]);
        }
        out << "\n";
        if (k == 0) {
            std::size_t total = 0;
            for (std::size_t w : width)
                total += w + 2;
            out << std::string(total - 2, '-') << "\n";
        }
    }
    out << footnote(rows) << "\n";
    return out.str();
}

std::string compareMarkdown(const std::vector<CompareRow>& rows)
{
    const auto c = cells(rows);
    std::ostringstream out;
    for (std::size_t k = 0; k < c.size(); ++k) {
        out << "|";
        for (std::size_t i = 0; i < c[k].size(); ++i)
            out << " " << (k == 0 || i >= 2 ? c[k][i] : (i == 0 ? "`" + c[k][i] + "`" : c[k][i])) << " |";
        out << "\n";
        if (k == 0) {
            out << "|";
            for (std::size_t i = 0; i < c[k].size(); ++i)
                out << (i < 2 || i == 6 ? "---|" : "---:|");
            out << "\n";
        }
    }
    out << "\n" << footnote(rows) << "\n";
    return out.str();
}

std::string compareJson(const std::vector<CompareRow>& rows)
{
    nlohmann::json a = nlohmann::json::array();
    for (const CompareRow& r : rows)
        a.push_back({{"design", r.design},
                     {"file", r.file},
                     {"description", r.description},
                     {"gpu", r.gpu},
                     {"gpus", r.gpus},
                     {"power_basis", r.basis},
                     {"it_basis_W", r.itNameplateW},
                     {"it_modelled_W", r.itModelledW},
                     {"facility_ac_W", r.acInputW},
                     {"grid_W", jsonNumber(r.gridW)},
                     {"tensor16_dtype", r.dtype16},
                     {"mfu", r.mfu},
                     {"peak_eflops_tensor16", jsonNumber(r.peakEflops16)},
                     {"sustained_eflops_tensor16", jsonNumber(r.sustainedEflops16)},
                     {"eflops_per_MW", jsonNumber(r.eflopsPerMw)},
                     {"errors", r.errors}});
    return nlohmann::json{{"designs", a}}.dump(2) + "\n";
}

} // namespace rdt::analysis
