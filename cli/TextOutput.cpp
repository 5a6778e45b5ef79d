#include "cli/TextOutput.h"

#include "power/PowerChecks.h"
#include "report/DynamicsOutput.h"
#include "report/FieldOutput.h"
#include "thermal/ThermalChecks.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

namespace rdt::cli {

std::string thousands(std::size_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

namespace {

/// Throughput with a supply failure in every rack, beside normal operation's (issue 33).
std::string plural(std::size_t n, const std::string& one, const std::string& many);

/// The fullest switch and chassis by ports used, and the rack tier's oversubscription range.
void portsLine(std::ostream& out, const signal::SignalResult& s)
{
    const signal::PartPorts *sw = nullptr, *ch = nullptr;
    double lo = INFINITY, hi = 0;
    for (const signal::PartPorts& p : s.ports) {
        if (p.available <= 0)
            continue;
        const signal::PartPorts*& top = p.isSwitch ? sw : ch;
        if (!top || double(p.used) / p.available > double(top->used) / top->available)
            top = &p;
        if (p.isSwitch && std::isfinite(p.oversubscription)) {
            lo = std::min(lo, p.oversubscription);
            hi = std::max(hi, p.oversubscription);
        }
    }
    if (!sw && !ch)
        return;
    out << "ports   ";
    if (sw)
        out << " fullest switch " << sw->used << " of " << sw->available << " ports (" << sw->id << ")";
    if (ch)
        out << (sw ? ";" : "") << " fullest chassis " << ch->used << " of " << ch->available << " interfaces ("
            << ch->id << ")";
    if (hi > 0) {
        char buf[96];
        if (hi - lo < 1e-9)
            std::snprintf(buf, sizeof buf, "; rack switches %.3g:1 down to up", hi);
        else
            std::snprintf(buf, sizeof buf, "; rack switches %.3g:1 to %.3g:1 down to up", lo, hi);
        out << buf;
    }
    out << "\n";
}

/// "BF16", "FP16", "BF16/FP16"; "16-bit" when no class has either.
std::string dtypeLabel(std::string d)
{
    if (d.empty())
        return "16-bit";
    for (char& c : d)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return d;
}

void failureLines(std::ostream& out, const analysis::ThroughputResult& t)
{
    std::vector<std::string> unaffected;
    double slowest = 1.0; // normal operation's slowest GPU (what the unaffected cases keep)
    for (const analysis::GpuClass& g : t.classes)
        slowest = std::min(slowest, g.clockRatio);
    for (const analysis::FailureCase& f : t.failureCases) {
        if (!f.solved) {
            out << "failure  with a " << f.name << ": not solved for more than "
                << thousands(analysis::kRotorCaseMaxRacks) << " racks of more than " << analysis::kRotorCaseMaxDistinct
                << " kinds (a second airflow solve of every rack); --scenario fan-fail=1 solves it\n";
            continue;
        }
        const std::string notJudged =
            f.racksNotJudged > 0
                ? "not judged for " + plural(static_cast<std::size_t>(f.racksNotJudged), "rack", "racks") +
                      " whose load takes AC directly (the facility's UPS carries them; the design does not describe it)"
                : std::string();
        if (f.racksLimited == 0) {
            if (notJudged.empty())
                unaffected.push_back(f.name);
            else
                out << "failure  with a " << f.name << ": " << notJudged << "\n";
            continue;
        }
        // A supply failure names the cap the survivors carry; a failed rotor slows GPUs by heat.
        const bool supply = !std::isnan(f.lowestCapW) || f.racksUnfeedable > 0;
        std::string what;
        if (supply && f.racksUnfeedable == f.racksLimited) {
            what = plural(static_cast<std::size_t>(f.racksLimited), "rack stops", "racks stop") +
                   " (no cap down to the GPUs' minimum feeds " + (f.racksLimited == 1 ? "it" : "them") + ")";
        } else if (supply) {
            what =
                (std::isnan(f.lowestCapW) ? std::string("the GPUs' minimum")
                                          : core::formatQuantity(std::floor(f.lowestCapW), core::Dimension::Power, 3)) +
                " per-GPU cap in " + plural(static_cast<std::size_t>(f.racksLimited), "rack", "racks");
            if (f.racksUnfeedable > 0)
                what += " (" + thousands(static_cast<std::size_t>(f.racksUnfeedable)) + " not even at the minimum)";
        } else
            what = plural(static_cast<std::size_t>(f.racksLimited), "rack", "racks") + " with GPUs slowed by heat";
        char buf[320];
        // The figures in a bounded buffer; the words, which grow with the counts, outside it.
        // The slowest GPU's figures beside the whole design's: "clock 0 %, 0 TFLOPS per GPU, 868 PFLOPS
        // in all" read as a contradiction (trust trial, 2026-12-07).
        std::snprintf(buf, sizeof buf, "the slowest GPU at clock %.0f %% and %.0f TFLOPS %s sustained, %.3g %s in all",
                      f.clockRatio * 100, f.sustainedTflops16PerGpu, dtypeLabel(t.dtype16).c_str(),
                      f.sustainedPflops16 >= 1000 ? f.sustainedPflops16 / 1e3 : f.sustainedPflops16,
                      f.sustainedPflops16 >= 1000 ? "EFLOPS" : "PFLOPS");
        out << "failure  with a " << f.name << ": " << what << ", " << buf
            << (notJudged.empty() ? std::string() : "; " + notJudged) << "\n";
    }
    if (unaffected.empty())
        return;
    out << "failure  with a ";
    for (std::size_t i = 0; i < unaffected.size(); ++i)
        out << (i == 0 ? "" : i + 1 == unaffected.size() ? " or " : ", ") << unaffected[i];
    // Unaffected means no slower than normal operation, which may itself be slow (a chassis with no
    // air stops in both): say where normal operation stands when it is below full clock.
    out << ": every rack keeps its normal-operation clocks at the design's caps";
    if (slowest < 1.0)
        out << " (the slowest GPU at clock " << std::lround(slowest * 100.0) << " % already in normal operation)";
    out << "\n";
}

} // namespace

namespace {

std::string plural(std::size_t n, const std::string& one, const std::string& many)
{
    return thousands(n) + " " + (n == 1 ? one : many);
}

/// `v` to four figures, or as many more (up to eight) as tell it apart from `other`.
std::string numberBeside(double v, double other)
{
    char a[32], b[32];
    for (int figures = 4; figures <= 8 && (figures == 4 || std::string(a) == b); ++figures) {
        std::snprintf(a, sizeof a, "%.*g", figures, v);
        std::snprintf(b, sizeof b, "%.*g", figures, other);
    }
    return a;
}

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", fraction * 100.0);
    return buf;
}

std::string mw(double w)
{
    return core::formatQuantity(w, core::Dimension::Power);
}

} // namespace

std::string powerSummaryText(const power::PowerResult& p, const std::vector<core::Violation>& violations)
{
    const power::GroupPower& c = p.cluster;
    const std::map<std::string, power::RuleFailures> byRule = power::failuresByRule(p, violations);
    std::ostringstream out;
    out << "power    " << core::powerBasisName(p.basis) << " basis: IT " << mw(c.itLoadW);
    if (p.basis != core::PowerBasis::Modelled)
        out << " (modelled " << mw(c.modelledLoadW) << ")";
    out << ", facility AC " << mw(c.acInputW);
    if (c.unfedLoadW > 0)
        out << " for the fed load (" << mw(c.unfedLoadW) << " in racks without a power shelf is not fed)";
    if (!p.cdus.empty()) {
        int units = 0;
        for (const power::CduPower& cdu : p.cdus)
            units += cdu.units;
        out << " + " << plural(static_cast<std::size_t>(units), "CDU", "CDUs") << " " << mw(c.cduW);
        if (p.basis != core::PowerBasis::Modelled)
            out << " (modelled " << mw(c.cduModelledW) << ")";
    }
    out << ", " << plural(c.racksOverBudget, "rack", "racks") << " over budget";
    if (!byRule.empty()) {
        out << " (";
        bool first = true;
        for (const auto& [rule, n] : byRule) {
            // A failure a waiver accepted is still over its limit; the summary says it is waived, as
            // the verdict does (it read as a failure beside "0 errors, 1 waived"; trust trial).
            out << (first ? "" : ", ") << rule << " " << thousands(n.racks);
            if (n.waived == n.racks)
                out << " waived";
            else if (n.waived > 0)
                out << " (" << thousands(n.waived) << " waived)";
            first = false;
        }
        out << ")";
    }
    if (std::isfinite(p.suggestedGpuCapW))
        out << "; a " << core::formatQuantity(std::floor(p.suggestedGpuCapW), core::Dimension::Power)
            << " per-GPU cap clears every failing power rule";
    out << "\n";
    // The largest busbar current and clip current, at the bar's minimum voltage (docs/power.md).
    const power::RackPower* bar = nullptr;
    const power::ClipCurrent* clip = nullptr;
    const power::RackPower* clipRack = nullptr;
    for (const auto& rack : p.racks) {
        if (!bar || rack.busbarCurrentA / rack.busbarRatingA > bar->busbarCurrentA / bar->busbarRatingA)
            bar = &rack;
        for (const power::ClipCurrent& one : rack.clips)
            if (!std::isnan(rack.clipRatingA) &&
                (!clip || one.currentA / rack.clipRatingA > clip->currentA / clipRack->clipRatingA)) {
                clip = &one;
                clipRack = &rack;
            }
    }
    if (bar && bar->busbarRatingA > 0) {
        // Figures until they differ: a clip 0.03 A over read "700 A of 700 A" (trust trial, 2026-12-07).
        const core::Dimension amps = core::Dimension::Current;
        out << "busbar   highest " << core::formatQuantityBeside(bar->busbarCurrentA, bar->busbarRatingA, amps)
            << " of " << core::formatQuantityBeside(bar->busbarRatingA, bar->busbarCurrentA, amps) << " (" << bar->id
            << ")";
        if (clip)
            out << "; largest clip " << core::formatQuantityBeside(clip->currentA, clipRack->clipRatingA, amps)
                << " of " << core::formatQuantityBeside(clipRack->clipRatingA, clip->currentA, amps) << " (" << clip->id
                << ")";
        out << ", at " << core::formatQuantity(bar->busbarVminV, core::Dimension::Voltage) << "\n";
    }
    return out.str();
}

std::string thermalSummaryText(const thermal::ThermalResult& t, double inletLimitK, const std::vector<bool>* fed)
{
    const thermal::ChassisThermal* hot = nullptr;
    int hotRack = -1;
    double inlet = 0, airflow = 0, fanLo = INFINITY, fanHi = 0;
    int liquidJunctions = 0; // GPUs judged on their cold plates (the liquid lines), not in the air
    for (const auto& rack : t.racks)
        for (const auto& ch : rack.chassis) {
            liquidJunctions += std::isnan(ch.liquidJunctionK) ? 0 : 1;
            // The hottest GPU; among equals (all held at the setpoint) the one whose fans work hardest.
            const bool hotter = !hot || ch.gpuJunctionK > hot->gpuJunctionK + 1e-3 ||
                                (ch.gpuJunctionK > hot->gpuJunctionK - 1e-3 && ch.fanSpeed > hot->fanSpeed);
            if (!std::isnan(ch.gpuJunctionK) && hotter) {
                hot = &ch;
                hotRack = rack.rack;
            }
            inlet = std::max(inlet, ch.inletK);
            airflow += ch.airflowM3s;
            fanLo = std::min(fanLo, ch.fanSpeed);
            fanHi = std::max(fanHi, ch.fanSpeed);
        }
    std::ostringstream out;
    using core::Dimension;
    out << "thermal  ";
    if (hot && std::isinf(hot->gpuJunctionK))
        out << "hottest GPU unbounded (" << hot->id << ": no air through the chassis, its GPUs stop), ";
    else if (hot) {
        out << "hottest GPU " << core::formatQuantity(hot->gpuJunctionK, Dimension::Temperature, 3) << " (" << hot->id
            << ", fans " << percent(hot->fanSpeed) << ", ";
        if (std::isnan(hot->maxOperatingK))
            out << "no max operating temperature in the catalog: not checked";
        else if (hot->gpuJunctionK > hot->maxOperatingK)
            out << core::formatQuantity(hot->gpuJunctionK - hot->maxOperatingK, Dimension::TemperatureDelta, 2)
                << " over its " << core::formatQuantity(hot->maxOperatingK, Dimension::Temperature, 3)
                << " max operating: throttled";
        else
            out << "margin "
                << core::formatQuantity(hot->maxOperatingK - hot->gpuJunctionK, Dimension::TemperatureDelta, 2)
                << " to " << core::formatQuantity(hot->maxOperatingK, Dimension::Temperature, 3) << " max operating";
        // A chassis whose rack no supply feeds runs nothing, yet the air is judged at its draw as
        // designed (conservative): said, as the throughput line counts its GPUs as not running.
        if (fed && hotRack >= 0 && static_cast<std::size_t>(hotRack) < fed->size() && !(*fed)[hotRack])
            out << "; its rack is not fed (orv3.power.source), its air judged at the draw as designed";
        out << "), ";
    } else if (liquidJunctions > 0)
        out << "GPU junctions on their cold plates (liquid lines, liquid.gpu.junction), ";
    else if (fanHi > 0)
        out << "GPU junction not modelled (thermal.limits.missing), ";
    if (fanHi > 0)
        out << "fans " << (percent(fanLo) == percent(fanHi) ? percent(fanLo) : percent(fanLo) + "–" + percent(fanHi))
            << " across chassis, warmest chassis inlet "
            << (std::isnan(inletLimitK) ? core::formatQuantity(inlet, Dimension::Temperature, 3)
                                        : core::formatQuantityBeside(inlet, inletLimitK, Dimension::Temperature, 3))
            << ", chassis airflow " << core::formatQuantity(airflow, Dimension::VolumeFlow, 4) << ", ";
    else {
        // No chassis with fans (a rack of switches): the inlet thermal.inlet.switch judges, not only a
        // count of throttled chassis (trust trial, 2026-12-07).
        double switchInlet = NAN;
        for (const auto& rack : t.racks)
            for (const auto& sw : rack.switches)
                switchInlet = std::isnan(switchInlet) ? sw.inletK : std::max(switchInlet, sw.inletK);
        if (!std::isnan(switchInlet))
            out << "warmest switch inlet "
                << (std::isnan(inletLimitK)
                        ? core::formatQuantity(switchInlet, Dimension::Temperature, 3)
                        : core::formatQuantityBeside(switchInlet, inletLimitK, Dimension::Temperature, 3))
                << ", ";
    }
    out << plural(t.throttledChassis, "chassis", "chassis") << " throttled\n";
    if (const std::string f = report::fieldSummaryText(t); !f.empty())
        out << "         " << f << "\n";
    if (!t.intakesFrom.empty())
        out << "         rack intakes from " << t.intakesFrom << "\n";
    return out.str();
}

std::string violationsText(const std::vector<core::Violation>& violations, const core::CheckRegistry& registry,
                           std::size_t maxPerRule)
{
    std::map<std::string, std::vector<const core::Violation*>> byRule;
    for (const auto& v : violations)
        byRule[v.rule].push_back(&v);
    if (byRule.empty())
        return "no violations\n";
    std::ostringstream out;
    // Registry order keeps related rules together and the output stable; rules the registry
    // does not hold (throughput targets, `target.<id>`) follow in id order.
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> order; // id, (title, source)
    for (const auto& e : registry.entries())
        if (byRule.count(e.info.id))
            order.push_back({e.info.id, {e.info.title, e.info.spec}});
    for (const auto& [id, vs] : byRule)
        if (!registry.find(id))
            order.push_back({id, {"throughput target", vs.front()->loc.file}});
    for (const auto& [id, meta] : order) {
        const auto& vs = byRule.at(id);
        std::size_t waived = 0;
        for (const auto* v : vs)
            waived += v->waived ? 1 : 0;
        out << core::severityName(vs.front()->severity) << "  " << id << " — " << meta.first << " ("
            << plural(vs.size(), "subject", "subjects");
        if (waived)
            out << ", " << thousands(waived) << " waived";
        out << ")\n";
        for (std::size_t i = 0; i < vs.size() && i < maxPerRule; ++i) {
            const core::Violation& v = *vs[i];
            out << "    " << v.subject << ": " << v.message;
            if (std::isfinite(v.measured) && std::isfinite(v.limit))
                out << " [" << numberBeside(v.measured, v.limit) << " vs limit " << numberBeside(v.limit, v.measured)
                    << " " << v.unit << "]";
            out << "\n      at " << v.loc.position();
            if (!v.loc.path.empty())
                out << " (" << v.loc.path << ")";
            if (v.waived)
                out << " — waived: " << v.justification;
            out << "\n";
        }
        if (vs.size() > maxPerRule)
            out << "    … and " << thousands(vs.size() - maxPerRule) << " more\n";
        out << "    source: " << meta.second << "\n";
    }
    return out.str();
}

std::string checkSummaryText(const analysis::RunResult& r, const core::CheckRegistry& registry)
{
    const core::Summary s = r.design.summary();
    const core::CheckCounts c = core::countViolations(r.violations);
    std::size_t rules = 0;
    for (const auto& e : registry.entries())
        rules += (e.info.target == core::RuleTarget::Design && r.profile.configFor(e.info).enabled) ? 1 : 0;
    std::ostringstream out;
    out << "design   " << r.design.name;
    if (!r.design.description.empty())
        out << " — " << r.design.description;
    out << "\n         " << r.design.file << "\n";
    out << "site     " << core::formatQuantity(r.design.site.altitudeM, core::Dimension::Length)
        << " altitude, supply air " << core::formatQuantity(r.design.site.supplyAirK, core::Dimension::Temperature)
        << ", ASHRAE " << r.design.site.ashraeClass << "\n";
    out << "layout   " << plural(s.halls, "hall", "halls") << ", " << plural(s.pods, "pod", "pods") << ", "
        << plural(s.rows, "row", "rows") << ", " << plural(s.racks, "rack", "racks") << "\n";
    out << "parts    " << plural(s.chassis, "chassis", "chassis") << " (" << plural(s.gpus, "GPU", "GPUs") << "), "
        << plural(s.switches, "switch", "switches") << ", " << plural(s.powerShelves, "power shelf", "power shelves")
        << ", " << plural(s.bbuShelves, "BBU shelf", "BBU shelves") << "\n";
    out << "links    " << plural(s.links, "link", "links") << " in "
        << plural(r.design.links.size(), "class", "classes") << "\n";
    if (!r.design.scenario.name.empty())
        out << "scenario " << r.design.scenario.name << "\n";
    if (r.power)
        out << powerSummaryText(*r.power, r.violations);
    if (r.energy) {
        const analysis::EnergyResult& e = *r.energy;
        char line[512];
        // Three significant figures in MWh below a GWh (a rack's year), GWh below a TWh; t below a
        // kt, kt below a Mt.
        const double mwh = e.total.annualMWh;
        char energy[48], co2[48];
        if (mwh >= 999.5e3)
            std::snprintf(energy, sizeof energy, "%.2f TWh", mwh / 1e6);
        else if (mwh >= 99.95e3)
            std::snprintf(energy, sizeof energy, "%.0f GWh", mwh / 1e3);
        else if (mwh >= 999.5)
            std::snprintf(energy, sizeof energy, "%.3g GWh", mwh / 1e3);
        else
            std::snprintf(energy, sizeof energy, "%.3g MWh", mwh);
        char load[96];
        if (e.profile.empty())
            std::snprintf(load, sizeof load, "at %.0f %% load", e.loadFactor * 100.0);
        else
            std::snprintf(load, sizeof load, "over the %zu-level utilisation profile (mean %.0f %% of full-load draw)",
                          e.profile.size(), e.loadFactor * 100.0);
        // The CDUs' draw is not IT: it joins the IT before the PUE (docs/liquid.md).
        const std::string it = e.total.cduModelledW > 0 ? "(IT AC " + mw(e.total.itModelledW) + " + CDUs " +
                                                              mw(e.total.cduModelledW) + ", modelled)"
                                                        : "IT AC " + mw(e.total.itModelledW) + " (modelled)";
        std::snprintf(line, sizeof line, "energy   from the grid %s = %s x PUE %.4g (%s); peak %s (%s); %s a year %s",
                      mw(e.total.facilityW).c_str(), it.c_str(), e.pue, e.pueSource.c_str(),
                      mw(e.total.facilityPeakW).c_str(), std::string(core::powerBasisName(e.basis)).c_str(), energy,
                      load);
        out << line;
        if (std::isfinite(e.total.co2Tonnes)) {
            const double t = e.total.co2Tonnes;
            if (t >= 999.5e3)
                std::snprintf(co2, sizeof co2, "%.2f Mt", t / 1e6);
            else if (t >= 999.5)
                std::snprintf(co2, sizeof co2, "%.1f kt", t / 1e3);
            else
                std::snprintf(co2, sizeof co2, "%.3g t", t);
            std::snprintf(line, sizeof line, ", %s CO2 at %.3g kg/kWh (%s)", co2, e.gridKgPerKWh, e.gridSource.c_str());
            out << line;
        }
        out << "\n";
    }
    if (r.thermal) {
        std::vector<bool> fed;
        if (r.power)
            for (const power::RackPower& rp : r.power->racks)
                fed.push_back(rp.fed);
        out << thermalSummaryText(*r.thermal,
                                  thermal::deratedMaxInletK(r.design.site.ashraeClass, r.design.site.altitudeM),
                                  r.power ? &fed : nullptr);
    }
    if (r.liquid)
        out << liquidSummaryText(*r.liquid);
    if (r.dynamics)
        out << report::dynamicsSummaryText(*r.dynamics);
    if (r.signal && !r.signal->links.empty()) {
        out << "signal  ";
        for (const auto& l : r.signal->links) {
            char buf[160];
            if (std::isfinite(l.comDb))
                std::snprintf(buf, sizeof buf, " %s: COM %.1f dB, %.0f Gb/s/lane, %s;", l.id.c_str(), l.comDb,
                              l.laneRateGbps, l.verdict.c_str());
            else
                std::snprintf(buf, sizeof buf, " %s: IL %.1f dB, %s;", l.id.c_str(), l.ilNyquistDb, l.verdict.c_str());
            out << buf;
        }
        out << "\n";
        portsLine(out, *r.signal);
    }
    if (r.throughput && r.throughput->gpus > 0) {
        const analysis::ThroughputResult& t = *r.throughput;
        const analysis::GpuClass* slow = nullptr;
        for (const auto& g : t.classes)
            if (!slow || g.clockRatio < slow->clockRatio)
                slow = &g;
        char buf[320];
        if (std::isnan(t.sustainedPflopsBf16)) {
            // A GPU without a BF16 peak in the catalog: say so rather than print "nan".
            std::string lacking;
            for (const auto& g : t.classes)
                if (std::isnan(g.sustainedTflopsBf16) && lacking.find(g.gpu) == std::string::npos)
                    lacking += (lacking.empty() ? "" : ", ") + g.gpu;
            out << "compute  not checked: " << lacking << " has no bf16_dense in the catalog; clock "
                << percent(slow->clockRatio) << ", limited by " << slow->limitedBy;
            if (t.dtype16 == "fp16") { // Volta: FP16 is its 16-bit tensor type, said as such
                std::snprintf(buf, sizeof buf, "; FP16 tensor %.0f TFLOPS sustained per GPU, %.3g %s for %s GPUs",
                              slow->sustainedTflops16,
                              t.sustainedPflops16 >= 1000 ? t.sustainedPflops16 / 1e3 : t.sustainedPflops16,
                              t.sustainedPflops16 >= 1000 ? "EFLOPS" : "PFLOPS",
                              thousands(static_cast<std::size_t>(t.gpus)).c_str());
                out << buf;
            }
            out << "\n";
        } else {
            char ramp[160] = "";
            if (t.rampLimitFactor < 1)
                std::snprintf(ramp, sizeof ramp, "; ramp-up limit x %.3f", t.rampLimitFactor);
            // Per GPU is the slowest class's figure; the total runs each class at its own pace, so
            // the class's share of the GPUs is said ("0 TFLOPS per GPU … 6.88 PFLOPS" read as a
            // contradiction where 8 of 32 GPUs were not fed).
            if (t.classes.size() > 1)
                std::snprintf(ramp + std::strlen(ramp), sizeof ramp - std::strlen(ramp),
                              "; the slowest of %zu GPU classes, %s of the %s GPUs", t.classes.size(),
                              thousands(static_cast<std::size_t>(slow->gpus)).c_str(),
                              thousands(static_cast<std::size_t>(t.gpus)).c_str());
            std::snprintf(
                buf, sizeof buf,
                "compute  %.0f TFLOPS BF16 sustained per GPU at MFU %.0f %% (clock %.0f %%, limited by %s%s), "
                "%.3g %s for %s GPUs\n",
                slow->sustainedTflopsBf16, t.mfu * 100, slow->clockRatio * 100, slow->limitedBy.c_str(), ramp,
                t.sustainedPflopsBf16 >= 1000 ? t.sustainedPflopsBf16 / 1e3 : t.sustainedPflopsBf16,
                t.sustainedPflopsBf16 >= 1000 ? "EFLOPS" : "PFLOPS",
                thousands(static_cast<std::size_t>(t.gpus)).c_str());
            out << buf;
        }
        failureLines(out, t);
        const double gib = 1ull << 30;
        auto bw = [&](models::Collective op, int n) { return t.collective(op, n, gib).busbwGBps; };
        const int node = t.hierarchy.gpusPerNode, pod = std::min(t.gpus, t.hierarchy.gpusPerPod());
        const std::string where = t.hierarchy.nodeScope == "nvlink-domain"
                                      ? "in the " + std::to_string(node) + "-GPU NVLink domain"
                                      : std::string("in a node");
        if (!t.hierarchy.scaleOutUnknown.empty() && t.gpus > node) {
            std::snprintf(buf, sizeof buf,
                          "network  busbw at 1 GiB: AllReduce %.0f GB/s %s; across nodes not checked: ",
                          bw(models::Collective::AllReduce, node), where.c_str());
            out << buf << t.hierarchy.scaleOutUnknown << "\n";
            buf[0] = '\0';
        } else if (pod >= t.gpus) // the whole design is one pod or less: "across all", no pod to name
            std::snprintf(buf, sizeof buf,
                          "network  busbw at 1 GiB: AllReduce %.0f GB/s %s, %.0f GB/s across all %s GPUs; "
                          "AllGather %.0f GB/s, AlltoAll %.0f GB/s across all (%s fabric)\n",
                          bw(models::Collective::AllReduce, node), where.c_str(),
                          bw(models::Collective::AllReduce, pod), thousands(static_cast<std::size_t>(t.gpus)).c_str(),
                          bw(models::Collective::AllGather, t.gpus), bw(models::Collective::AllToAll, t.gpus),
                          t.fabric.c_str());
        else
            std::snprintf(buf, sizeof buf,
                          "network  busbw at 1 GiB: AllReduce %.0f GB/s %s, %.0f GB/s across a pod; "
                          "AllGather %.0f GB/s across a pod, %.0f GB/s across all; AlltoAll %.0f GB/s across all "
                          "(%s fabric)\n",
                          bw(models::Collective::AllReduce, node), where.c_str(),
                          bw(models::Collective::AllReduce, pod), bw(models::Collective::AllGather, pod),
                          bw(models::Collective::AllGather, t.gpus), bw(models::Collective::AllToAll, t.gpus),
                          t.fabric.c_str());
        out << buf;
        if (t.checkpoint && t.checkpoint->checked) {
            const analysis::CheckpointResult& ck = *t.checkpoint;
            // Three figures as the dynamics line gives them, whole minutes from 100 (never "1.4e+03").
            char interval[32];
            std::snprintf(interval, sizeof interval, ck.intervalS / 60.0 < 100 ? "%.3g" : "%.0f", ck.intervalS / 60.0);
            std::snprintf(buf, sizeof buf,
                          "ckpt     %s%s%.2f TB: save %.1f s (%s-bound), restore %.1f s, stall %.3g s every %s min; "
                          "MTBF %.2f h; goodput %.1f %% (%s GPU-hours a day lost)\n",
                          ck.workload.c_str(), ck.workload.empty() ? "" : ", ", ck.bytes / 1e12, ck.saveS,
                          ck.writeBottleneck.c_str(), ck.restoreS, ck.stallS, interval, ck.mtbfS / 3600.0,
                          ck.goodput * 100.0,
                          thousands(static_cast<std::size_t>(std::lround(ck.lostGpuHoursPerDay))).c_str());
            out << buf;
        }
        for (std::size_t i = 0; i < t.notes.size() && i < 5; ++i)
            out << "note     " << t.notes[i] << "\n";
        if (t.notes.size() > 5)
            out << "note     … and " << thousands(t.notes.size() - 5) << " more (throughput.notes in --json)\n";
        if (!t.targets.empty()) {
            std::size_t pass = 0, na = 0;
            for (const auto& x : t.targets) {
                pass += x.pass ? 1 : 0;
                na += x.applicable ? 0 : 1;
            }
            out << "targets  " << pass << " of " << t.targets.size() - na << " met"
                << (na ? " (" + std::to_string(na) + " not applicable to a design this size)" : "") << " ("
                << t.mfuSource << ")\n";
        }
    }
    char timing[160];
    std::snprintf(timing, sizeof timing,
                  "(load %.3f s, power %.3f s, thermal %.3f s, signal %.3f s, throughput %.3f "
                  "s, rules %.3f s)",
                  r.loadSeconds, r.powerSeconds, r.thermalSeconds, r.signalSeconds, r.throughputSeconds,
                  r.checkSeconds);
    // The profile's file where it is not the bundled one of that name: a name is only the file's word.
    const std::filesystem::path pf(r.profile.file);
    const bool bundled = pf.stem() == r.profile.name && pf.parent_path().filename() == "rules" &&
                         std::filesystem::exists(pf.parent_path().parent_path() / "catalog");
    const std::string profile = r.profile.name + (bundled || r.profile.file.empty() ? "" : " (" + r.profile.file + ")");
    out << "checks   " << rules << " rules, profile " << profile << ": " << plural(c.errors, "error", "errors") << ", "
        << plural(c.warnings, "warning", "warnings") << ", " << thousands(c.infos) << " info, " << thousands(c.waived)
        << " waived " << timing << "\n";
    for (const core::Waiver& w : r.unusedWaivers) // a mistyped subject is not silent
        out << "waiver   " << w.rule << " on " << w.subject << " (" << w.loc.position() << ") waived nothing\n";
    if (!r.violations.empty())
        out << "\n" << violationsText(r.violations, registry, 10);
    return out.str();
}

} // namespace rdt::cli
