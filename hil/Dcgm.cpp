#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>

#include "hil/Telemetry.h"
#include "core/Error.h"
#include "core/Yaml.h"

namespace rdt::hil {

namespace {

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

double toNumber(const std::string& s, const core::SourceLoc& loc)
{
    if (s == "N/A" || s == "-" || s == "NaN")
        return NAN;
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || !std::isfinite(v))
        throw core::InputError(loc, "\"" + s + "\" is not a number");
    return v;
}

/// A GPU index: a whole number 0…65535 (a label such as "N/A" or "1e30" is bad input, not a cast).
int gpuIndex(const std::string& s, const core::SourceLoc& loc)
{
    const double v = toNumber(s, loc);
    if (!(v >= 0 && v <= 65535) || v != std::floor(v))
        throw core::InputError(loc, "GPU index \"" + s + "\" is not a whole number 0-65535");
    return static_cast<int>(v);
}

} // namespace

Telemetry parseDcgmDmon(const std::string& text, const std::string& file)
{
    Telemetry t;
    t.file = file;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    std::vector<std::string> tags;
    while (std::getline(in, line)) {
        ++n;
        const std::vector<std::string> w = words(line);
        if (w.empty())
            continue;
        if (w[0] == "#Entity" || (w[0] == "#" && w.size() > 1 && w[1] == "Entity")) {
            tags.assign(w.begin() + (w[0] == "#" ? 2 : 1), w.end());
            for (const char* need : {"POWER", "SMCLK"})
                if (std::find(tags.begin(), tags.end(), need) == tags.end())
                    throw core::InputError(core::SourceLoc{file, n, 0, "header"},
                                           std::string("no ") + need +
                                               " column: run dcgmi dmon -e 155,203,100,150 (power, utilization, SM "
                                               "clock, temperature)");
            continue;
        }
        if (w[0] == "ID" || w[0] == "Id" || w[0][0] == '#')
            continue;
        if (tags.empty())
            throw core::InputError(core::SourceLoc{file, n, 0, "header"},
                                   "a data row before the #Entity header: not dcgmi dmon output");
        if (w[0] != "GPU")
            continue; // GPU-I, GPU-CI, switch or link entities
        if (w.size() != tags.size() + 2)
            throw core::InputError(core::SourceLoc{file, n, 0, "row"},
                                   "expected " + std::to_string(tags.size() + 2) + " fields (GPU, id, " +
                                       std::to_string(tags.size()) + " values), found " + std::to_string(w.size()));
        TelemetrySample s;
        s.line = n;
        s.gpu = gpuIndex(w[1], core::SourceLoc{file, n, 0, "GPU id"});
        bool incomplete = false;
        for (std::size_t k = 0; k < tags.size(); ++k) {
            const double v = toNumber(w[k + 2], core::SourceLoc{file, n, 0, tags[k]});
            if (tags[k] == "POWER") {
                if (v < 0 || v > 5000)
                    throw core::InputError(core::SourceLoc{file, n, 0, "POWER"}, "power out of range (0-5000 W)");
                s.powerW = v;
                incomplete |= std::isnan(v);
            } else if (tags[k] == "SMCLK") {
                s.clockHz = v * 1e6;
                incomplete |= std::isnan(v);
            } else if (tags[k] == "GPUTL") {
                s.utilization = v / 100.0;
            } else if (tags[k] == "TMPTR") {
                s.temperatureK = v + 273.15;
            }
        }
        if (incomplete)
            ++t.skipped;
        else
            t.samples.push_back(s);
    }
    if (tags.empty())
        throw core::InputError(core::SourceLoc{file, 1, 0, "header"}, "no #Entity header: not dcgmi dmon output");
    return t;
}

Telemetry parsePrometheusDcgm(const std::string& text, const std::string& file)
{
    Telemetry t;
    t.file = file;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    // The scrape being read: GPU key (host/gpu) → sample.
    std::map<std::string, TelemetrySample> scrape;
    std::vector<std::string> order;  // GPUs in order of first appearance in the scrape
    std::map<std::string, int> seen; // metric+series seen in this scrape
    auto flush = [&] {
        for (const std::string& key : order) {
            const TelemetrySample& s = scrape[key];
            if (std::isnan(s.powerW) || std::isnan(s.clockHz))
                ++t.skipped;
            else
                t.samples.push_back(s);
        }
        scrape.clear();
        order.clear();
        seen.clear();
    };
    while (std::getline(in, line)) {
        ++n;
        if (line.empty() || line[0] == '#')
            continue;
        const auto brace = line.find('{');
        const auto close = line.find('}');
        std::string name, labels, rest;
        if (brace != std::string::npos && close != std::string::npos && close > brace) {
            name = line.substr(0, brace);
            labels = line.substr(brace + 1, close - brace - 1);
            rest = line.substr(close + 1);
        } else {
            const auto sp = line.find(' ');
            if (sp == std::string::npos)
                throw core::InputError(core::SourceLoc{file, n, 0, "sample"}, "expected `metric{labels} value`");
            name = line.substr(0, sp);
            rest = line.substr(sp);
        }
        if (name.rfind("DCGM_FI_", 0) != 0)
            continue;
        const std::vector<std::string> w = words(rest);
        if (w.empty())
            throw core::InputError(core::SourceLoc{file, n, 0, name}, "no value");
        const double v = toNumber(w[0], core::SourceLoc{file, n, 0, name});
        // Labels: key="value" pairs.
        std::map<std::string, std::string> lab;
        for (std::size_t i = 0; i < labels.size();) {
            const auto eq = labels.find('=', i);
            if (eq == std::string::npos || eq + 1 >= labels.size() || labels[eq + 1] != '"')
                break;
            const auto end = labels.find('"', eq + 2);
            if (end == std::string::npos)
                throw core::InputError(core::SourceLoc{file, n, 0, name}, "unterminated label value");
            std::string key = labels.substr(i, eq - i);
            while (!key.empty() && (key.front() == ',' || key.front() == ' '))
                key.erase(0, 1);
            lab[key] = labels.substr(eq + 2, end - eq - 2);
            i = end + 1;
        }
        if (!lab.count("gpu"))
            throw core::InputError(core::SourceLoc{file, n, 0, name}, "no gpu label");
        const std::string key = lab["Hostname"] + "/" + lab["gpu"];
        if (seen[name + key]++ > 0) {
            flush(); // the same series again: the next scrape
            seen[name + key] = 1;
        }
        if (!scrape.count(key))
            order.push_back(key);
        TelemetrySample& s = scrape[key];
        if (s.line == 0) {
            s.line = n;
            s.gpu = gpuIndex(lab["gpu"], core::SourceLoc{file, n, 0, "gpu"});
            if (t.gpuName.empty() && lab.count("modelName"))
                t.gpuName = lab["modelName"];
        }
        if (name == "DCGM_FI_DEV_POWER_USAGE") {
            if (v < 0 || v > 5000)
                throw core::InputError(core::SourceLoc{file, n, 0, name}, "power out of range (0-5000 W)");
            s.powerW = v;
        } else if (name == "DCGM_FI_DEV_SM_CLOCK") {
            s.clockHz = v * 1e6;
        } else if (name == "DCGM_FI_DEV_GPU_UTIL") {
            s.utilization = v / 100.0;
        } else if (name == "DCGM_FI_DEV_GPU_TEMP") {
            s.temperatureK = v + 273.15;
        } else if (name == "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" || name == "DCGM_FI_DEV_CLOCKS_EVENT_REASONS") {
            if (!(v >= 0 && v <= 9007199254740992.0) || v != std::floor(v))
                throw core::InputError(core::SourceLoc{file, n, 0, name}, "throttle reasons are a bit mask (a whole "
                                                                          "number), not " +
                                                                              w[0]);
            s.throttleReasons = v;
        }
    }
    flush();
    if (t.samples.empty() && t.skipped == 0)
        throw core::InputError(core::SourceLoc{file, 0, 0, "DCGM_FI_DEV_POWER_USAGE"},
                               "no DCGM_FI_DEV_POWER_USAGE / DCGM_FI_DEV_SM_CLOCK samples: not DCGM exporter output");
    return t;
}

Telemetry readGpuTelemetry(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos) {
        if (text.compare(first, 7, "#Entity") == 0 || text.compare(first, 8, "# Entity") == 0)
            return parseDcgmDmon(text, path);
        if (text.find("DCGM_FI_") != std::string::npos && text.compare(first, 6, "# HELP") == 0)
            return parsePrometheusDcgm(text, path);
        if (text.compare(first, 8, "DCGM_FI_") == 0)
            return parsePrometheusDcgm(text, path);
    }
    return parseNvidiaSmiCsv(text, path);
}

std::string throttleReasonNames(double bits)
{
    if (!(bits >= 0 && bits <= 9007199254740992.0))
        return "unknown";
    const auto b = static_cast<std::uint64_t>(bits);
    if (b == 0)
        return "none";
    static const std::pair<std::uint64_t, const char*> names[] = {
        {0x1, "gpu_idle"},    {0x2, "clocks_setting"},  {0x4, "sw_power_cap"},
        {0x8, "hw_slowdown"}, {0x10, "sync_boost"},     {0x20, "sw_thermal"},
        {0x40, "hw_thermal"}, {0x80, "hw_power_brake"}, {0x100, "display_clocks"}};
    std::string s;
    for (const auto& [bit, name] : names)
        if (b & bit)
            s += (s.empty() ? "" : ",") + std::string(name);
    return s.empty() ? "other" : s;
}

} // namespace rdt::hil
