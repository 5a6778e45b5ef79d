#include "hil/Telemetry.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "core/Error.h"
#include "core/Yaml.h"

namespace rdt::hil {

namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> fields(const std::string& line)
{
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(line);
    while (std::getline(in, cur, ','))
        out.push_back(trim(cur));
    if (!line.empty() && line.back() == ',')
        out.push_back("");
    return out;
}

struct Column {
    const char* name; ///< nvidia-smi field name
    const char* unit; ///< the unit nvidia-smi prints for it ("" for none)
    double scale;     ///< to SI
    double offset;
    double max;       ///< largest plausible value as printed (a GPU's physical range, generous)
};

constexpr Column kPower{"power.draw", "W", 1.0, 0.0, 5000.0};
constexpr Column kClock{"clocks.sm", "MHz", 1e6, 0.0, 10000.0}; // the header reads clocks.current.sm
constexpr Column kUtil{"utilization.gpu", "%", 0.01, 0.0, 100.0};
constexpr Column kTemp{"temperature.gpu", "", 1.0, 273.15, 200.0}; // degrees C, printed without a unit

} // namespace

Telemetry parseNvidiaSmiCsv(const std::string& text, const std::string& file)
{
    Telemetry t;
    t.file = file;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    std::vector<std::string> header;
    int headerLine = 0;
    auto fail = [&](int at, const std::string& what, const std::string& msg) {
        throw core::InputError(core::SourceLoc{file, at, 0, what}, msg);
    };
    // Column index by field name (header cells read "power.draw [W]").
    auto find = [&](const char* name) -> int {
        for (std::size_t i = 0; i < header.size(); ++i) {
            const std::string h = trim(header[i].substr(0, header[i].find('[')));
            if (h == name)
                return static_cast<int>(i);
        }
        return -1;
    };
    int cPower = -1, cClock = -1, cUtil = -1, cTemp = -1, cIndex = -1, cName = -1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (trim(line).empty())
            continue;
        if (header.empty()) {
            header = fields(line);
            headerLine = lineNo;
            cPower = find(kPower.name);
            cClock = find(kClock.name);
            if (cClock < 0)
                cClock = find("clocks.current.sm"); // what nvidia-smi prints for the clocks.sm query
            cUtil = find(kUtil.name);
            cTemp = find(kTemp.name);
            cIndex = find("index");
            cName = find("name");
            if (cPower < 0 || cClock < 0)
                fail(lineNo, "header",
                     std::string("not an nvidia-smi --query-gpu CSV with the fields rdt needs: missing ") +
                         (cPower < 0 ? "power.draw" : "clocks.sm") +
                         " (query at least power.draw,clocks.sm; utilization.gpu and temperature.gpu help)");
            continue;
        }
        const std::vector<std::string> f = fields(line);
        if (f.size() != header.size())
            fail(lineNo, "row",
                 "a row with " + std::to_string(f.size()) + " fields, the header (line " + std::to_string(headerLine) +
                     ") has " + std::to_string(header.size()) +
                     (f.size() < header.size() ? " — is the file truncated?" : ""));
        bool missing = false;
        auto value = [&](int col, const Column& c, bool required) -> double {
            if (col < 0)
                return NAN;
            std::string v = f[static_cast<std::size_t>(col)];
            if (v == "[N/A]" || v == "N/A" || v == "[Not Supported]" || v == "[Unknown Error]" ||
                v == "[GPU requires reset]") {
                missing |= required;
                return NAN;
            }
            // Strip the unit nvidia-smi prints, checking it is the column's.
            const auto sp = v.find(' ');
            if (sp != std::string::npos) {
                const std::string unit = trim(v.substr(sp + 1));
                if (unit != c.unit)
                    fail(lineNo, c.name,
                         std::string("column \"") + c.name + "\": unit \"" + unit + "\", expected \"" + c.unit + "\"");
                v = v.substr(0, sp);
            }
            double x = 0;
            const auto r = std::from_chars(v.data(), v.data() + v.size(), x);
            if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(x) || x < 0)
                fail(lineNo, c.name,
                     std::string("column \"") + c.name + "\": not a number: \"" + core::clipped(v) + "\"");
            if (x > c.max)
                fail(lineNo, c.name,
                     std::string("column \"") + c.name + "\": " + core::clipped(v) + " " + c.unit +
                         " is beyond any GPU (at most " + std::to_string(static_cast<long>(c.max)) + " " + c.unit + ")");
            return x * c.scale + c.offset;
        };
        TelemetrySample s;
        s.line = lineNo;
        s.powerW = value(cPower, kPower, true);
        s.clockHz = value(cClock, kClock, true);
        s.utilization = value(cUtil, kUtil, false);
        s.temperatureK = value(cTemp, kTemp, false);
        if (cIndex >= 0) {
            const std::string& v = f[static_cast<std::size_t>(cIndex)];
            int idx = 0;
            const auto r = std::from_chars(v.data(), v.data() + v.size(), idx);
            if (r.ec != std::errc() || r.ptr != v.data() + v.size())
                fail(lineNo, "index", "column \"index\": not a GPU index: \"" + v + "\"");
            s.gpu = idx;
        }
        if (cName >= 0 && t.gpuName.empty())
            t.gpuName = f[static_cast<std::size_t>(cName)];
        if (missing) {
            ++t.skipped;
            continue;
        }
        t.samples.push_back(s);
    }
    if (header.empty())
        fail(0, "header", "empty file: no nvidia-smi CSV header");
    if (t.samples.empty())
        fail(headerLine, "rows", "no samples with power.draw and clocks.sm after the header");
    return t;
}

Telemetry readNvidiaSmiCsv(const std::string& path)
{
    return parseNvidiaSmiCsv(core::readTextFile(path), path);
}

} // namespace rdt::hil
