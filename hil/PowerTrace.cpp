#include "hil/PowerTrace.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

#include "core/Error.h"
#include "core/Yaml.h"
#include "hil/Telemetry.h"

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

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long long daysFromCivil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

/// nvidia-smi's `YYYY/MM/DD HH:MM:SS.mmm` as seconds since 1970; NaN when it is not one.
double parseTimestamp(const std::string& s)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double sec = 0;
    char a = 0, b = 0, c = 0, e = 0;
    std::istringstream in(s);
    in >> y >> a >> mo >> b >> d >> h >> c >> mi >> e >> sec;
    if (in.fail() || a != '/' || b != '/' || c != ':' || e != ':' || mo < 1 || mo > 12 || d < 1 || d > 31 ||
        h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec >= 61)
        return NAN;
    in >> std::ws;
    if (!in.eof())
        return NAN;
    return static_cast<double>(daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d))) * 86400.0 +
           h * 3600.0 + mi * 60.0 + sec;
}

/// Each GPU's (time, power) samples onto one grid: the first GPU's median interval, over the span
/// every GPU covers, each GPU linearly interpolated, then averaged.
PowerTrace resample(const std::map<int, std::vector<std::pair<double, double>>>& byGpu, const std::string& file,
                    std::size_t rows, double stepS)
{
    PowerTrace t;
    t.file = file;
    t.rows = rows;
    t.gpus = static_cast<int>(byGpu.size());
    const core::SourceLoc at{file, 0, 0, "samples"};
    if (byGpu.empty())
        throw core::InputError(at, "no power samples");
    if (std::isnan(stepS)) {
        const auto& first = byGpu.begin()->second;
        std::vector<double> gaps;
        for (std::size_t i = 1; i < first.size(); ++i)
            gaps.push_back(first[i].first - first[i - 1].first);
        if (gaps.empty())
            throw core::InputError(at, "one sample per GPU: a power trace needs a series (nvidia-smi -lms 100)");
        std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
        stepS = gaps[gaps.size() / 2];
    }
    if (!(stepS > 0) || stepS > 1.0)
        throw core::InputError(at, "samples every " + std::to_string(stepS) +
                                       " s: a power trace needs 1 s or finer (nvidia-smi -lms 100, dcgmi dmon -d 100)");
    double from = -INFINITY, to = INFINITY;
    for (const auto& g : byGpu) {
        from = std::max(from, g.second.front().first);
        to = std::min(to, g.second.back().first);
    }
    if ((to - from) / stepS > 2e7)
        throw core::InputError(at, "more than 20 million samples on one grid (" + std::to_string(to - from) +
                                       " s every " + std::to_string(stepS) + " s): cut the trace");
    const auto n = to > from ? static_cast<std::size_t>(std::floor((to - from) / stepS + 1e-9)) + 1 : 0;
    if (n < 16)
        throw core::InputError(at, "fewer than 16 samples common to every GPU: record a longer trace");
    if (static_cast<double>(n) * static_cast<double>(byGpu.size()) > 2e8)
        throw core::InputError(at, std::to_string(byGpu.size()) + " GPUs of " + std::to_string(n) +
                                       " samples each: more than one node's trace at a time is not needed (cut it)");
    t.stepS = stepS;
    t.meanW.assign(n, 0.0);
    for (const auto& g : byGpu) {
        const std::vector<std::pair<double, double>>& s = g.second;
        std::size_t j = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = from + static_cast<double>(i) * stepS;
            while (j + 1 < s.size() && s[j + 1].first < x)
                ++j;
            const auto& [t0, p0] = s[j];
            const auto& [t1, p1] = j + 1 < s.size() ? s[j + 1] : s[j];
            const double w = t1 > t0 ? std::clamp((x - t0) / (t1 - t0), 0.0, 1.0) : 0.0;
            t.meanW[i] += (p0 + w * (p1 - p0)) / static_cast<double>(byGpu.size());
        }
    }
    return t;
}

} // namespace

PowerTrace parsePowerTrace(const std::string& text, const std::string& file, double intervalS)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    std::map<int, std::vector<std::pair<double, double>>> byGpu;
    if (first != std::string::npos &&
        (text.compare(first, 7, "#Entity") == 0 || text.compare(first, 8, "# Entity") == 0)) {
        // dcgmi dmon: no timestamps; each GPU's samples in order at the interval given.
        if (std::isnan(intervalS))
            throw core::InputError(core::SourceLoc{file, 0, 0, "--interval"},
                                   "dcgmi dmon text has no timestamps: give its sampling interval (--interval 100ms, "
                                   "as dmon's -d 100)");
        const Telemetry tel = parseDcgmDmon(text, file);
        // A sample dmon could not read (N/A) keeps its place in time: the next one is still an interval on.
        std::map<int, std::size_t> seen;
        for (const TelemetrySample& s : tel.samples) {
            const double t = static_cast<double>(seen[s.gpu]++) * intervalS;
            if (!std::isnan(s.powerW))
                byGpu[s.gpu].emplace_back(t, s.powerW);
        }
        return resample(byGpu, file, tel.samples.size(), intervalS);
    }
    std::istringstream in(text);
    std::string line;
    int lineNo = 0, cTime = -1, cPower = -1, cIndex = -1;
    std::size_t width = 0, rows = 0;
    std::map<int, std::size_t> seen; // rows per GPU, read or not
    auto fail = [&](const std::string& what, const std::string& msg) {
        throw core::InputError(core::SourceLoc{file, lineNo, 0, what}, msg);
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (trim(line).empty())
            continue;
        const std::vector<std::string> f = fields(line);
        if (width == 0) {
            for (std::size_t i = 0; i < f.size(); ++i) {
                const std::string h = trim(f[i].substr(0, f[i].find('[')));
                if (h == "timestamp")
                    cTime = static_cast<int>(i);
                else if (h == "index")
                    cIndex = static_cast<int>(i);
                else if (h == "power.draw.instant" || (h == "power.draw" && cPower < 0))
                    cPower = static_cast<int>(i);
            }
            if (cPower < 0)
                fail("header", "not a power trace: no power.draw column (nvidia-smi "
                               "--query-gpu=timestamp,index,power.draw --format=csv -lms 100)");
            if (cTime < 0 && std::isnan(intervalS))
                fail("header", "no timestamp column: query timestamp too, or give the sampling interval (--interval)");
            width = f.size();
            continue;
        }
        if (f.size() != width)
            fail("row", "a row with " + std::to_string(f.size()) + " fields, the header has " + std::to_string(width) +
                            (f.size() < width ? " — is the file truncated?" : ""));
        int gpu = 0;
        if (cIndex >= 0) {
            const std::string& v = f[static_cast<std::size_t>(cIndex)];
            const auto ri = std::from_chars(v.data(), v.data() + v.size(), gpu);
            if (ri.ec != std::errc() || ri.ptr != v.data() + v.size())
                fail("index", "column \"index\": not a GPU index: \"" + core::clipped(v) + "\"");
        }
        // Without timestamps a row's time is its place in the GPU's rows, read or not.
        const std::size_t place = seen[gpu]++;
        std::string p = f[static_cast<std::size_t>(cPower)];
        if (p == "[N/A]" || p == "N/A" || p == "[Not Supported]" || p == "[Unknown Error]")
            continue;
        if (const auto sp = p.find(' '); sp != std::string::npos) {
            if (trim(p.substr(sp + 1)) != "W")
                fail("power.draw", "column \"power.draw\": unit \"" + core::clipped(trim(p.substr(sp + 1))) +
                                       "\", expected \"W\"");
            p = p.substr(0, sp);
        }
        double w = 0;
        const auto r = std::from_chars(p.data(), p.data() + p.size(), w);
        if (r.ec != std::errc() || r.ptr != p.data() + p.size() || !std::isfinite(w) || w < 0 || w > 5000)
            fail("power.draw", "column \"power.draw\": not a GPU's power in W: \"" + core::clipped(p) + "\"");
        auto& s = byGpu[gpu];
        double t = static_cast<double>(place) * intervalS;
        if (cTime >= 0) {
            t = parseTimestamp(f[static_cast<std::size_t>(cTime)]);
            if (std::isnan(t))
                fail("timestamp", "column \"timestamp\": not nvidia-smi's YYYY/MM/DD HH:MM:SS.mmm: \"" +
                                      core::clipped(f[static_cast<std::size_t>(cTime)]) + "\"");
            if (!s.empty() && t <= s.back().first)
                fail("timestamp", "GPU " + std::to_string(gpu) + "'s timestamp does not advance");
        }
        s.emplace_back(t, w);
        ++rows;
    }
    if (width == 0)
        throw core::InputError(core::SourceLoc{file, 0, 0, "header"}, "empty file: no nvidia-smi CSV header");
    return resample(byGpu, file, rows, cTime >= 0 ? NAN : intervalS);
}

PowerTrace readPowerTrace(const std::string& path, double intervalS)
{
    return parsePowerTrace(core::readTextFile(path), path, intervalS);
}

} // namespace rdt::hil
