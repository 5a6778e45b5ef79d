/// \file Sweep.cpp
/// The sweep: its spec (axes over design paths), one variant's run, all variants on threads, and
/// the frontier of the best variants. The file it writes is SweepFile.cpp.

#include "analysis/Sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "core/Units.h"
#include "core/Error.h"
#include "core/Yaml.h"
#include "room/FieldSolver.h"

namespace rdt::analysis {

namespace fs = std::filesystem;

namespace {

/// `a.b[3].c` → segments; each either a key or an index.
struct Segment {
    std::string key;
    long index = -1;
};

std::vector<Segment> splitPath(const std::string& path)
{
    std::vector<Segment> out;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            ++i;
            continue;
        }
        if (path[i] == '[') {
            const auto close = path.find(']', i);
            if (close == std::string::npos)
                return {};
            try {
                out.push_back({"", std::stol(path.substr(i + 1, close - i - 1))});
            } catch (const std::exception&) {
                return {};
            }
            i = close + 1;
            continue;
        }
        const auto end = path.find_first_of(".[", i);
        out.push_back({path.substr(i, end == std::string::npos ? std::string::npos : end - i), -1});
        i = end == std::string::npos ? path.size() : end;
    }
    return out;
}

/// The node at `path` under `root` (yaml-cpp nodes are handles: writing through it edits `root`);
/// an invalid node when the path does not exist.
YAML::Node nodeAt(YAML::Node root, const std::string& path)
{
    const std::vector<Segment> segs = splitPath(path);
    if (segs.empty())
        return YAML::Node(YAML::NodeType::Undefined);
    YAML::Node n = root;
    for (const Segment& s : segs) {
        if (s.index >= 0) {
            if (!n.IsSequence() || s.index >= static_cast<long>(n.size()))
                return YAML::Node(YAML::NodeType::Undefined);
            n.reset(n[static_cast<std::size_t>(s.index)]);
        } else {
            if (!n.IsMap() || !n[s.key])
                return YAML::Node(YAML::NodeType::Undefined);
            n.reset(n[s.key]);
        }
    }
    return n;
}

/// One field axis's value written over its scalar in the design's text.
struct Splice {
    std::size_t pos = 0; ///< where the scalar starts in the text
    std::string path;    ///< the field, to check the result
    std::string value;   ///< the value as the spec writes it
};

/// The end of the scalar that starts at `pos`: past its closing quote, or a plain scalar's last
/// character before a line end, a comment or (in flow style) `,`, `]` or `}`.
std::size_t scalarEnd(const std::string& t, std::size_t pos)
{
    if (pos >= t.size())
        return pos;
    if (t[pos] == '"' || t[pos] == '\'') {
        const char q = t[pos];
        for (std::size_t i = pos + 1; i < t.size(); ++i) {
            if (q == '"' && t[i] == '\\') {
                ++i;
                continue;
            }
            if (t[i] == q) {
                if (q == '\'' && i + 1 < t.size() && t[i + 1] == '\'') {
                    ++i;
                    continue;
                }
                return i + 1;
            }
        }
        return t.size();
    }
    std::size_t i = pos;
    while (i < t.size() && t[i] != '\n' && t[i] != '\r' && t[i] != ',' && t[i] != ']' && t[i] != '}' &&
           !(t[i] == '#' && i > pos && (t[i - 1] == ' ' || t[i - 1] == '\t')))
        ++i;
    while (i > pos && (t[i - 1] == ' ' || t[i - 1] == '\t'))
        --i;
    return i;
}

/// `text` with each splice's scalar replaced by its value, last first; nullopt unless the result
/// parses and every field then holds its value (a scalar that did not end where scalarEnd thought).
std::optional<std::string> splicedText(std::string text, const std::string& file, std::vector<Splice> splices)
{
    std::sort(splices.begin(), splices.end(), [](const Splice& a, const Splice& b) { return a.pos > b.pos; });
    for (std::size_t k = 1; k < splices.size(); ++k)
        if (splices[k].pos == splices[k - 1].pos)
            return std::nullopt; // two axes on one field
    for (const Splice& s : splices) {
        YAML::Emitter e;
        e << s.value;
        text.replace(s.pos, scalarEnd(text, s.pos) - s.pos, e.c_str());
    }
    try {
        const YAML::Node doc = core::parseYaml(text, file);
        for (const Splice& s : splices) {
            const YAML::Node n = nodeAt(doc, s.path);
            if (!n.IsScalar() || n.Scalar() != s.value)
                return std::nullopt;
        }
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return text;
}

std::string resolve(const std::string& specFile, const std::string& rel)
{
    if (rel.empty() || fs::path(rel).is_absolute())
        return rel;
    return (fs::path(specFile).parent_path() / rel).lexically_normal().string();
}

} // namespace

std::size_t SweepSpec::variants() const
{
    std::size_t n = 1;
    for (const SweepAxis& a : axes)
        n *= a.labels.size();
    return n;
}

std::vector<std::size_t> SweepSpec::at(std::size_t i) const
{
    std::vector<std::size_t> idx(axes.size());
    for (std::size_t k = axes.size(); k-- > 0;) {
        idx[k] = i % axes[k].labels.size();
        i /= axes[k].labels.size();
    }
    return idx;
}

SweepSpec loadSweepSpec(const std::string& path)
{
    const core::Cursor root = core::Cursor::parse(core::readTextFile(path), path);
    root.requireMap();
    root.allowKeys({"sweep", "design", "targets", "profile", "axes", "description"});
    if (root["sweep"].integer(1, 1) != 1)
        root["sweep"].fail("unsupported sweep version");
    SweepSpec s;
    s.file = path;
    s.design = resolve(path, root["design"].str());
    if (!fs::exists(s.design))
        root["design"].fail("design " + s.design + " not found");
    s.designText = core::readTextFile(s.design);
    if (const auto t = root.find("targets")) {
        s.targets = resolve(path, t->str());
        if (!fs::exists(s.targets))
            t->fail("targets " + s.targets + " not found");
    }
    if (const auto p = root.find("profile")) {
        // A name, or a file beside the sweep file (as its design and targets are).
        s.profile = p->str();
        if (s.profile.find('/') != std::string::npos || s.profile.ends_with(".yaml")) {
            s.profile = resolve(path, s.profile);
            if (!fs::exists(s.profile))
                p->fail("rule profile " + s.profile + " not found");
        } else if (!fs::exists(profilePath(s.profile))) {
            p->fail("rule profile \"" + s.profile + "\" not found (" + profilePath(s.profile) + ")");
        }
    }
    const core::Cursor axes = root["axes"];
    axes.requireSequence();
    if (axes.size() == 0)
        axes.fail("a sweep needs at least one axis");
    const YAML::Node design = core::parseYaml(s.designText, s.design);
    for (const core::Cursor& a : axes.elements()) {
        a.requireMap();
        a.allowKeys({"axis", "path", "values", "from", "to", "step"});
        SweepAxis ax;
        ax.axis = a["axis"].str();
        ax.loc = a.loc();
        struct Kind {
            const char* name;
            core::Dimension dim;
            const char* unit;
            int type;          // 0 quantity, 1 count, 2 word
            core::Range range; // a quantity's values: those the command line's option takes
        };
        static const Kind kinds[] = {
            {"inlet", core::Dimension::Temperature, "degC", 0, RunOptions::kInletRange},
            {"altitude", core::Dimension::Length, "m", 0, RunOptions::kAltitudeRange},
            {"gpu_cap", core::Dimension::Power, "W", 0, core::Range{}}, // and each GPU's own range (applyScenario)
            {"fan_fail", core::Dimension::Ratio, "", 1, {}},
            {"feed_loss", core::Dimension::Ratio, "", 2, {}},
            {"power_basis", core::Dimension::Ratio, "", 2, {}},
            {"thermal", core::Dimension::Ratio, "", 2, {}},
            {"field", core::Dimension::Ratio, "", 2, {}}};
        const Kind* kind = nullptr;
        std::vector<std::string> names;
        for (const Kind& k : kinds) {
            names.push_back(k.name);
            if (ax.axis == k.name)
                kind = &k;
        }
        if (!kind)
            a["axis"].fail("unknown axis \"" + ax.axis + "\" (" +
                           "inlet, altitude, gpu_cap, fan_fail, feed_loss, power_basis, thermal or field)" +
                           core::didYouMean(ax.axis, names));
        ax.unit = kind->unit;
        if (ax.axis == "field") {
            ax.path = a["path"].str();
            YAML::Node copy = YAML::Clone(design);
            if (!nodeAt(copy, ax.path).IsDefined())
                a["path"].fail("the design has no field \"" + ax.path +
                               "\" (write it as in the file: site.humidity, "
                               "templates.gt-rack.slots[4].gpu_power_cap)");
        } else if (a.has("path")) {
            a["path"].fail("only field axes take a path");
        }
        if (a.has("values"))
            for (const char* range : {"from", "to", "step"})
                if (a.has(range)) // both given, one silently ignored (trust trial, 2026-12-07)
                    a[range].fail(std::string("an axis takes values: [...] or from/to/step, not both (") + range +
                                  " beside values)");
        if (a.has("values")) {
            const core::Cursor v = a["values"];
            v.requireSequence();
            for (const core::Cursor& x : v.elements()) {
                if (kind->type == 0) {
                    const double si = x.quantity(kind->dim, kind->range);
                    ax.values.push_back(si);
                    ax.labels.push_back(x.str());
                } else if (kind->type == 1) {
                    ax.values.push_back(static_cast<double>(x.integer(0, 64)));
                    ax.labels.push_back(x.str());
                } else {
                    const std::string w = ax.axis == "field" && !x.isScalar() ? x.yamlText() : x.str();
                    if (ax.axis == "feed_loss" && w != "none" && w != "A" && w != "B")
                        x.fail("feed_loss is none, A or B");
                    if (ax.axis == "power_basis" && w != "nameplate" && w != "peak" && w != "modelled")
                        x.fail("power_basis is nameplate, peak or modelled");
                    if (ax.axis == "thermal" && w != "network" && w != "field")
                        x.fail("thermal is network or field");
                    ax.values.push_back(NAN);
                    ax.labels.push_back(w);
                }
            }
        } else if (a.has("from")) {
            if (kind->type == 2)
                a["from"].fail(ax.axis + " takes values, not a range");
            const bool temp = kind->dim == core::Dimension::Temperature;
            const double from = kind->type == 1 ? static_cast<double>(a["from"].integer(0, 64))
                                                : a["from"].quantity(kind->dim, kind->range);
            const double to = kind->type == 1 ? static_cast<double>(a["to"].integer(0, 64))
                                              : a["to"].quantity(kind->dim, kind->range);
            const double step = kind->type == 1
                                    ? static_cast<double>(a["step"].integer(1, 64))
                                    : a["step"].quantity(temp ? core::Dimension::TemperatureDelta : kind->dim,
                                                         core::Range{1e-12, 1e300});
            if (to < from)
                a["to"].fail("the range is empty: to is below from");
            if ((to - from) / step > 10000)
                a["step"].fail("more than 10,000 values on one axis");
            // Each value from its index: a running sum of the step drifts (34 degC + 10 x 0.1 K was
            // 35.000000000000014 degC, over a 35 degC limit rdt check at 35 degC is not over).
            const auto count = static_cast<long>(std::floor((to - from) / step * (1 + 1e-12) + 1e-9)) + 1;
            for (long i = 0; i < count; ++i) {
                double x = std::min(to, i + 1 == count && std::abs(from + i * step - to) <= 1e-9 * step ? to
                                                                                                       : from + i * step);
                if (temp) // the nearest value the step's decimals can name (34.1 degC, not 307.25000000000006 K)
                    x = std::round((x - 273.15) * 1e9) / 1e9 + 273.15;
                ax.values.push_back(x);
                char b[48];
                const double shown = temp ? x - 273.15 : x;
                std::snprintf(b, sizeof b, "%.6g%s%s", shown, ax.unit.empty() ? "" : " ", ax.unit.c_str());
                ax.labels.push_back(b);
            }
        } else {
            a.fail("an axis needs values: [...] or from/to/step");
        }
        if (ax.labels.empty())
            a["values"].fail("the axis has no values");
        for (double v : ax.values)
            ax.display.push_back(kind->dim == core::Dimension::Temperature ? v - 273.15 : v);
        // Two axes setting the same thing: one overrode the other, and the table labelled each variant
        // with a value it did not run at (inlet 20 degC beside a field axis on site.supply_air at 35;
        // trust trial, 2026-12-07).
        static const std::map<std::string, std::string> sets = {{"inlet", "site.supply_air"},
                                                                 {"altitude", "site.altitude"},
                                                                 {"thermal", "thermal.model"},
                                                                 {"power_basis", "power.basis"}};
        const auto canonical = [](const SweepAxis& x) {
            if (x.axis == "field")
                return x.path;
            const auto it = sets.find(x.axis);
            return it == sets.end() ? x.axis : it->second;
        };
        for (const SweepAxis& before : s.axes)
            if (canonical(before) == canonical(ax))
                a.fail("this axis sets " + canonical(ax) + ", as the axis at line " + std::to_string(before.loc.line) +
                       " does: one would override the other (give its values on one axis)");
        s.axes.push_back(std::move(ax));
    }
    if (s.variants() > 100000)
        axes.fail(std::to_string(s.variants()) + " variants: a sweep holds at most 100,000");
    return s;
}

VariantResult runVariant(const SweepSpec& spec, std::size_t index)
{
    const auto t0 = std::chrono::steady_clock::now();
    VariantResult out;
    out.index = index;
    try {
        RunOptions o;
        o.designPath = spec.design;
        o.profile = spec.profile;
        o.targetsPath = spec.targets;
        const std::vector<std::size_t> at = spec.at(index);
        YAML::Node doc;
        bool edited = false, spliceable = true;
        std::vector<Splice> splices;
        for (std::size_t k = 0; k < spec.axes.size(); ++k) {
            const SweepAxis& a = spec.axes[k];
            const double v = a.values[at[k]];
            const std::string& w = a.labels[at[k]];
            core::SourceLoc from = a.loc;
            from.path += " (" + a.name() + " " + w + ")";
            if (a.axis == "gpu_cap")
                o.gpuCapFrom = from;
            else if (a.axis == "fan_fail" || a.axis == "feed_loss")
                o.scenarioFrom = from;
            if (a.axis == "inlet")
                o.inletK = v;
            else if (a.axis == "altitude")
                o.altitudeM = v;
            else if (a.axis == "gpu_cap")
                o.gpuCapW = v;
            else if (a.axis == "fan_fail")
                o.failedRotors = static_cast<int>(v);
            else if (a.axis == "feed_loss")
                o.lostFeed = w == "none" ? "" : w;
            else if (a.axis == "power_basis")
                o.powerBasis = w == "peak"       ? core::PowerBasis::Peak
                               : w == "modelled" ? core::PowerBasis::Modelled
                                                 : core::PowerBasis::Nameplate;
            else if (a.axis == "thermal")
                o.thermalModel = w == "field" ? core::ThermalModel::Field : core::ThermalModel::Network;
            else if (a.axis == "field") {
                if (!edited) {
                    doc = core::parseYaml(spec.designText, spec.design);
                    edited = true;
                }
                YAML::Node n = nodeAt(doc, a.path);
                if (n.IsScalar() && n.Mark().pos >= 0)
                    splices.push_back({static_cast<std::size_t>(n.Mark().pos), a.path, w});
                else
                    spliceable = false;
                n = YAML::Load(w);
            }
        }
        if (edited) {
            // The design's own text with each scalar replaced where it stands, so that an error in a
            // variant names the line the user wrote (re-emitting the document renumbered every line
            // and dropped the comments); a value that is not one scalar in place re-emits it.
            std::optional<std::string> text;
            if (spliceable)
                text = splicedText(spec.designText, spec.design, std::move(splices));
            if (!text) {
                YAML::Emitter e;
                e << doc;
                text = e.c_str();
            }
            o.designText = *text;
        }
        core::Progress quiet;
        const RunResult r = run(o, quiet);
        const core::CheckCounts c = core::countViolations(r.violations);
        out.errors = static_cast<int>(c.errors);
        out.warnings = static_cast<int>(c.warnings);
        std::set<std::string> failed;
        for (const core::Violation& v : r.violations)
            if (!v.waived && v.severity == core::Severity::Error)
                failed.insert(v.rule);
        for (const std::string& f : failed)
            out.failedRules += (out.failedRules.empty() ? "" : ",") + f;
        if (r.throughput) {
            out.sustainedPflops = r.throughput->sustainedPflopsBf16;
            out.peakPflops = r.throughput->peakPflopsBf16;
            for (const TargetResult& t : r.throughput->targets)
                if (t.applicable) {
                    ++out.targets;
                    out.targetsFailed += t.pass ? 0 : 1;
                }
        }
        if (r.thermal) {
            double inlet = -1e300, tj = -1e300;
            for (const thermal::RackThermal& rt : r.thermal->racks) {
                for (const thermal::ChassisThermal& ch : rt.chassis) {
                    inlet = std::max(inlet, ch.inletK); // the inlet thermal.inlet.chassis judges, either model
                    tj = std::max(tj, ch.judgedJunctionK());
                }
                // And each switch's, as thermal.inlet.switch judges it: a rack of switches had no
                // max inlet at all while its switches failed (found in review, 2026-12-07).
                for (const thermal::RackThermal::SwitchInlet& sw : rt.switches)
                    inlet = std::max(inlet, sw.inletK);
            }
            out.maxInletC = inlet > -1e300 ? inlet - 273.15 : NAN;
            out.maxJunctionC = tj > 0 ? tj - 273.15 : NAN;
            out.throttled = static_cast<int>(r.thermal->throttledChassis);
        }
        if (r.power) {
            out.itLoadW = r.power->cluster.itLoadW;
            out.acInputW = r.power->cluster.acInputW;
        }
        out.ok = true;
    } catch (const room::FieldConvergenceError& e) {
        out.ok = false;
        out.notConverged = true;
        out.error = e.what();
    } catch (const core::InputError& e) {
        out.ok = false;
        out.badInput = true;
        out.error = e.what();
    } catch (const std::exception& e) { // anything else is an internal error (rdt check's exit 3)
        out.ok = false;
        out.error = e.what();
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

std::vector<VariantResult> runSweep(const SweepSpec& spec, core::Progress& progress)
{
    const long n = static_cast<long>(spec.variants());
    std::vector<VariantResult> out(static_cast<std::size_t>(n));
    std::atomic<long> done{0};
    std::mutex m;
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < n; ++i) {
        VariantResult& r = out[static_cast<std::size_t>(i)];
        if (progress.isCancelled()) {
            r.index = static_cast<std::size_t>(i);
            r.interrupted = true;
            r.error = "not run: the sweep was interrupted";
            continue;
        }
        r = runVariant(spec, static_cast<std::size_t>(i));
        const long d = ++done;
        const std::lock_guard<std::mutex> lock(m);
        progress.update(static_cast<double>(d) / static_cast<double>(n),
                        "variant " + std::to_string(d) + " of " + std::to_string(n));
    }
    return out;
}

std::vector<std::string> sweepFrontier(const SweepSpec& spec, const std::vector<VariantResult>& results)
{
    std::size_t axis = spec.axes.size();
    for (std::size_t k = 0; k < spec.axes.size(); ++k)
        if (spec.axes[k].numeric()) {
            axis = k;
            break;
        }
    std::vector<std::string> out;
    if (axis == spec.axes.size())
        return out;
    const SweepAxis& a = spec.axes[axis];
    // The labels of every axis but `axis`: the line a variant belongs to.
    auto otherAxes = [&](const std::vector<std::size_t>& at) {
        std::string key;
        for (std::size_t k = 0; k < spec.axes.size(); ++k)
            if (k != axis)
                key += (key.empty() ? "" : ", ") + spec.axes[k].name() + " " + spec.axes[k].labels[at[k]];
        return key;
    };
    // Group by the other axes' labels, in first-seen order.
    std::vector<std::string> order;
    std::map<std::string, std::pair<double, std::string>> best; // key → (value, label) of the largest passing
    std::map<std::string, bool> brokenBelow;
    std::map<std::string, std::size_t> ran, notRunAbove; // variants that ran; that did not, above the best
    for (const VariantResult& r : results) {
        const std::vector<std::size_t> at = spec.at(r.index);
        const std::string key = otherAxes(at);
        if (!best.count(key)) {
            order.push_back(key);
            best[key] = {-1e300, ""};
        }
        ran[key] += r.ok ? 1 : 0;
        if (r.passes() && a.values[at[axis]] > best[key].first)
            best[key] = {a.values[at[axis]], a.labels[at[axis]]};
    }
    // A failing value below the best passing one: the verdict is not monotonic along the axis. A
    // variant that did not run is no verdict: above the best it leaves the frontier open (until
    // 2026-12-07 a sweep none of whose variants ran read "no inlet in the sweep passes every verdict").
    for (const VariantResult& r : results) {
        const std::vector<std::size_t> at = spec.at(r.index);
        const std::string key = otherAxes(at);
        if (r.ok && !r.passes() && a.values[at[axis]] < best[key].first)
            brokenBelow[key] = true;
        if (!r.ok && a.values[at[axis]] > best[key].first)
            ++notRunAbove[key];
    }
    for (const std::string& key : order) {
        const auto& [v, label] = best[key];
        std::string line = (key.empty() ? std::string("all variants") : key) + ": ";
        if (ran[key] == 0) {
            out.push_back(line + "no variant ran, so no frontier");
            continue;
        }
        line += label.empty() ? "no " + a.name() + " in the sweep passes every verdict"
                              : a.name() + " up to " + label + " passes every verdict";
        if (brokenBelow[key])
            line += " (but a lower " + a.name() + " fails: not monotonic)";
        if (notRunAbove[key] > 0)
            line += " (" + std::to_string(notRunAbove[key]) + (notRunAbove[key] == 1 ? " variant" : " variants") +
                    (label.empty() ? " did not run)" : " above it did not run: the frontier may lie higher)");
        out.push_back(line);
    }
    return out;
}

} // namespace rdt::analysis
