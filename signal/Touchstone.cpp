#include "signal/Touchstone.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/Error.h"
#include "core/Yaml.h"
#include "signal/NetworkAlgebra.h"

namespace rdt::signal {

namespace {

/// Most ports read (Touchstone 2's [Number of Ports] has the same bound); a larger count in a
/// file name is refused before ports² sizes are computed from it.
constexpr int kMaxPorts = 999;
constexpr int kPortsOutOfRange = -1000;

} // namespace

namespace {

using cd = std::complex<double>;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

enum class Param { S, Y, Z, H, G };

struct Parser {
    std::string_view text;
    std::string file;
    int version = 1;
    int ports = 0;
    double freqScale = 1e9;
    Param param = Param::S;
    DataFormat format = DataFormat::MA;
    double r = 50.0;
    bool optionSeen = false;
    bool twoPort21First = true; // v1 and [Two-Port Data Order] 21_12
    bool twoPortOrderGiven = false;
    std::string matrixFormat = "full";
    long long declaredFreqs = -1;
    std::vector<double> refs;
    int refsLine = 0; ///< the [Reference] keyword's line
    bool rSeen = false;
    std::string mixedOrder;
    std::vector<std::string> comments;
    std::vector<double> values;
    std::vector<int> valueLines;

    [[noreturn]] void fail(int line, const std::string& msg) const
    {
        throw core::InputError(core::SourceLoc{file, line, 0, {}}, msg);
    }

    /// Parse every number on `s` into values; anything that is not a number is an error.
    void numbers(std::string_view s, int line, std::vector<double>& into, std::vector<int>* lines)
    {
        const char* p = s.data();
        const char* end = s.data() + s.size();
        while (p < end) {
            while (p < end && (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r'))
                ++p;
            if (p >= end)
                break;
            double v = 0;
            const char* start = *p == '+' ? p + 1 : p;
            const auto [next, ec] = std::from_chars(start, end, v);
            if (ec != std::errc() || next == start) {
                const char* stop = p;
                while (stop < end && !std::isspace(static_cast<unsigned char>(*stop)))
                    ++stop;
                fail(line, "\"" + std::string(p, stop) + "\" is not a number");
            }
            if (!std::isfinite(v))
                fail(line, "value \"" + std::string(p, next) + "\" is not finite");
            into.push_back(v);
            if (lines)
                lines->push_back(line);
            p = next;
        }
    }

    void option(std::string_view s, int line)
    {
        if (optionSeen)
            return; // only the first option line counts
        optionSeen = true;
        std::size_t i = 1;
        auto token = [&]() {
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
                ++i;
            const std::size_t b = i;
            while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
                ++i;
            return lower(s.substr(b, i - b));
        };
        for (std::string t = token(); !t.empty(); t = token()) {
            if (t == "hz" || t == "khz" || t == "mhz" || t == "ghz")
                freqScale = t == "hz" ? 1.0 : t == "khz" ? 1e3 : t == "mhz" ? 1e6 : 1e9;
            else if (t == "s" || t == "y" || t == "z" || t == "h" || t == "g")
                param = t == "s"   ? Param::S
                        : t == "y" ? Param::Y
                        : t == "z" ? Param::Z
                        : t == "h" ? Param::H
                                   : Param::G;
            else if (t == "ri" || t == "ma" || t == "db")
                format = t == "ri" ? DataFormat::RI : t == "ma" ? DataFormat::MA : DataFormat::DB;
            else if (t == "r") {
                // One reference on the option line: a second R was taken silently, the last winning.
                if (rSeen)
                    fail(line, "option line: R is given twice (one reference impedance for every port; "
                               "[Reference] in version 2.0 gives one per port)");
                rSeen = true;
                const std::string v = token();
                double x = 0;
                const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
                if (ec != std::errc() || ptr != v.data() + v.size() || !(x > 0))
                    fail(line, "option line: R needs a positive reference impedance, got \"" + v + "\"");
                r = x;
            } else
                fail(line, "option line: unknown token \"" + t + "\" (units Hz kHz MHz GHz; S Y Z H G; RI MA DB; R n)");
        }
    }

    /// Handles a `[Keyword] value` line; returns false at [End].
    bool keyword(std::string_view s, int line, std::size_t& pos)
    {
        const std::size_t close = s.find(']');
        if (close == std::string_view::npos)
            fail(line, "unterminated keyword \"" + std::string(s) + "\"");
        const std::string key = lower(s.substr(1, close - 1));
        const std::string_view value = trim(s.substr(close + 1));
        auto integer = [&](long long lo, long long hi) {
            long long v = 0;
            const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
            if (ec != std::errc() || ptr != value.data() + value.size() || v < lo || v > hi)
                fail(line,
                     "[" + key + "] needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
            return v;
        };
        if (key == "version") {
            const std::string v = lower(value);
            if (v != "2.0" && v != "2.1")
                fail(line, "[Version] " + std::string(value) + " is not supported (2.0 or 2.1)");
            version = 2;
        } else if (key == "number of ports") {
            ports = static_cast<int>(integer(1, 999));
        } else if (key == "two-port data order") {
            const std::string v = lower(value);
            if (v != "12_21" && v != "21_12")
                fail(line, "[Two-Port Data Order] must be 12_21 or 21_12");
            twoPort21First = v == "21_12";
            twoPortOrderGiven = true;
        } else if (key == "number of frequencies") {
            declaredFreqs = integer(1, 100000000);
        } else if (key == "number of noise frequencies") {
        } else if (key == "reference") {
            refsLine = line;
            numbers(value, line, refs, nullptr);
            // The list may continue on the following lines.
            while (static_cast<int>(refs.size()) < ports && pos < text.size()) {
                const std::size_t e = text.find('\n', pos);
                std::string_view next =
                    text.substr(pos, e == std::string_view::npos ? std::string_view::npos : e - pos);
                ++currentLine;
                pos = e == std::string_view::npos ? text.size() : e + 1;
                const std::size_t bang = next.find('!');
                numbers(trim(next.substr(0, bang)), currentLine, refs, nullptr);
            }
            // Each port's reference a positive resistance, as the option line's R: a negative or
            // zero one gave NaN or zeros on conversion, exit 0 (trust trial, 2026-12-07).
            for (std::size_t k = 0; k < refs.size(); ++k)
                if (!(refs[k] > 0) || !std::isfinite(refs[k]))
                {
                    char v[32];
                    std::snprintf(v, sizeof v, "%g", refs[k]);
                    fail(line, "[Reference]: port " + std::to_string(k + 1) + "'s reference impedance " + v +
                                   " ohm is not a positive resistance");
                }
        } else if (key == "matrix format") {
            matrixFormat = lower(value);
            if (matrixFormat != "full" && matrixFormat != "lower" && matrixFormat != "upper")
                fail(line, "[Matrix Format] must be Full, Lower or Upper");
        } else if (key == "mixed-mode order") {
            mixedOrder = std::string(value);
        } else if (key == "network data") {
            inData = true;
        } else if (key == "noise data") {
            inData = false;
            inNoise = true;
        } else if (key == "begin information") {
            inInformation = true;
        } else if (key == "end information") {
            inInformation = false;
        } else if (key == "end") {
            return false;
        } else {
            fail(line, "unknown keyword [" + std::string(s.substr(1, close - 1)) + "]");
        }
        return true;
    }

    int currentLine = 0;
    bool inData = false, inNoise = false, inInformation = false;

    Network run()
    {
        std::size_t pos = 0;
        bool open = true;
        while (pos < text.size() && open) {
            const std::size_t e = text.find('\n', pos);
            std::string_view line = text.substr(pos, e == std::string_view::npos ? std::string_view::npos : e - pos);
            pos = e == std::string_view::npos ? text.size() : e + 1;
            ++currentLine;
            const std::size_t bang = line.find('!');
            if (bang != std::string_view::npos) {
                if (trim(line.substr(0, bang)).empty())
                    comments.emplace_back(trim(line.substr(bang + 1)));
                line = line.substr(0, bang);
            }
            line = trim(line);
            if (line.empty())
                continue;
            if (line.front() == '[') {
                if (inInformation && lower(line.substr(0, 17)) != "[end information]")
                    continue;
                open = keyword(line, currentLine, pos);
                continue;
            }
            if (inInformation || inNoise)
                continue;
            if (line.front() == '#') {
                option(line, currentLine);
                continue;
            }
            if (version == 2 && !inData)
                fail(currentLine, "data before [Network Data]");
            numbers(line, currentLine, values, &valueLines);
        }
        if (version == 2 && open)
            fail(currentLine, "missing [End]");
        return build();
    }

    Network build()
    {
        // The port count comes from the file name for version 1: bound it before any size is
        // computed from it (ports² entries per frequency).
        if (ports < 0 || ports > kMaxPorts)
            fail(1, "the file name gives " + (ports == kPortsOutOfRange ? std::string("too many") : std::to_string(ports)) +
                        " ports; Touchstone files with 1 … " + std::to_string(kMaxPorts) + " ports are read");
        if (version == 1 && ports == 0)
            fail(1, "cannot tell the number of ports: name the file .sNp (e.g. .s4p) or use Touchstone 2 [Number of "
                    "Ports]");
        if (ports == 0)
            fail(1, "missing [Number of Ports]");
        if (version == 2 && ports == 2 && !twoPortOrderGiven)
            fail(1, "a Touchstone 2 two-port needs [Two-Port Data Order] (12_21 or 21_12)");
        if (!optionSeen)
            optionSeen = true; // all defaults: GHz S MA R 50
        const bool full = matrixFormat == "full";
        const std::size_t entries =
            full ? static_cast<std::size_t>(ports * ports) : static_cast<std::size_t>(ports * (ports + 1) / 2);
        const std::size_t per = 1 + 2 * entries;
        if (values.empty())
            fail(currentLine, "no network data");
        // Each frequency's data begins on a new line: one that begins mid-line follows a frequency with
        // a value too many or too few (until 2026-12-06 an extra value anywhere read as "truncated
        // data" at the file's last line).
        for (std::size_t k = 1; k * per < values.size(); ++k)
            if (valueLines[k * per] == valueLines[k * per - 1]) {
                const int at = valueLines[(k - 1) * per];
                fail(at, "the frequency on this line does not have the " + std::to_string(per) + " values of a " +
                             std::to_string(ports) + "-port (the frequency and " + std::to_string(entries) +
                             " pairs): the next frequency would begin mid-line at line " +
                             std::to_string(valueLines[k * per]) + " (a value missing or one too many)");
            }
        if (values.size() % per != 0) {
            const std::size_t have = values.size() % per;
            fail(valueLines.back(), "truncated data: the last frequency has " + std::to_string(have) + " of " +
                                        std::to_string(per) + " values for a " + std::to_string(ports) + "-port");
        }
        const std::size_t nf = values.size() / per;
        if (declaredFreqs >= 0 && static_cast<std::size_t>(declaredFreqs) != nf)
            fail(valueLines.back(), "[Number of Frequencies] says " + std::to_string(declaredFreqs) +
                                        " but the data has " + std::to_string(nf));
        Network net;
        net.z0 = Eigen::VectorXd::Constant(ports, r);
        if (!refs.empty()) {
            if (static_cast<int>(refs.size()) != ports)
                fail(refsLine, "[Reference] lists " + std::to_string(refs.size()) + " impedances for " +
                            std::to_string(ports) + " ports");
            for (int i = 0; i < ports; ++i)
                net.z0(i) = refs[static_cast<std::size_t>(i)];
        }
        net.mixedModeOrder = mixedOrder;
        net.comments = comments;
        net.freqHz.reserve(nf);
        net.s.reserve(nf);
        CMatrix m(ports, ports);
        for (std::size_t k = 0; k < nf; ++k) {
            const double* v = values.data() + k * per;
            const double f = v[0] * freqScale;
            if (!(f >= 0.0) || !std::isfinite(f))
                fail(valueLines[k * per], "frequency " + std::to_string(v[0]) + " is negative or not finite");
            if (!net.freqHz.empty() && f <= net.freqHz.back())
                fail(valueLines[k * per],
                     "frequencies must increase (" + std::to_string(v[0]) + " after a higher or equal one)");
            net.freqHz.push_back(f);
            std::size_t idx = 1;
            for (int i = 0; i < ports; ++i)
                for (int j = 0; j < ports; ++j) {
                    const bool stored = full || (matrixFormat == "lower" ? j <= i : j >= i);
                    if (!stored)
                        continue;
                    const cd c = value(v[idx], v[idx + 1]);
                    idx += 2;
                    m(i, j) = c;
                    if (!full)
                        m(j, i) = c;
                }
            if (ports == 2 && full && twoPort21First)
                std::swap(m(0, 1), m(1, 0)); // data order N11 N21 N12 N22
            net.s.push_back(toS(m, net.z0, valueLines[k * per]));
        }
        return net;
    }

    cd value(double a, double b) const
    {
        switch (format) {
        case DataFormat::RI: return {a, b};
        case DataFormat::MA: return std::polar(a, b * M_PI / 180.0);
        case DataFormat::DB: return std::polar(std::pow(10.0, a / 20.0), b * M_PI / 180.0);
        }
        return {};
    }

    CMatrix toS(const CMatrix& m, const Eigen::VectorXd& z0, int line) const
    {
        // Version 1 normalises Y, Z, H and G by R; version 2 gives them in ohms and siemens.
        const double zs = version == 1 ? r : 1.0;
        switch (param) {
        case Param::S: return m;
        case Param::Z: return z2s(m * zs, z0);
        case Param::Y: return y2s(m / zs, z0);
        case Param::H:
        case Param::G: {
            if (ports != 2)
                fail(line, "H and G parameters exist only for two-ports");
            CMatrix h = m;
            h(0, 0) *= zs;
            h(1, 1) /= zs;
            if (param == Param::G)
                h = CMatrix(h).inverse(); // G = H⁻¹
            CMatrix z(2, 2);
            z(0, 0) = h(0, 0) - h(0, 1) * h(1, 0) / h(1, 1);
            z(0, 1) = h(0, 1) / h(1, 1);
            z(1, 0) = -h(1, 0) / h(1, 1);
            z(1, 1) = cd(1.0) / h(1, 1);
            return z2s(z, z0);
        }
        }
        return m;
    }
};

int portsFromName(const std::string& name)
{
    const std::string ext = lower(std::filesystem::path(name).extension().string());
    if (ext.size() >= 4 && ext[1] == 's' && ext.back() == 'p') {
        long long n = 0;
        const auto [p, ec] = std::from_chars(ext.data() + 2, ext.data() + ext.size() - 1, n);
        if (ec == std::errc::result_out_of_range)
            return kPortsOutOfRange;
        if (ec == std::errc() && p == ext.data() + ext.size() - 1)
            return n > kMaxPorts ? kPortsOutOfRange : n < 0 ? -1 : static_cast<int>(n);
    }
    return 0;
}

void put(std::string& out, double v)
{
    char buf[32];
    const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
    (void)ec;
    out.append(buf, p);
}

} // namespace

Network parseTouchstone(std::string_view text, const std::string& fileName)
{
    Parser p;
    p.text = text;
    p.file = fileName;
    p.ports = portsFromName(fileName);
    return p.run();
}

Network readTouchstone(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    return parseTouchstone(text, path);
}

std::string writeTouchstone(const Network& net, int version, DataFormat format, const std::string& comment)
{
    const int n = net.ports();
    std::string out;
    out.reserve(net.points() * static_cast<std::size_t>(n * n) * 50 + 512);
    out += "! written by rdt\n";
    if (!comment.empty())
        out += "! " + comment + "\n";
    if (version == 1)
        for (int i = 1; i < n; ++i)
            if (net.z0(i) != net.z0(0))
                throw std::invalid_argument(
                    "Touchstone 1 has one reference impedance; write version 2 for per-port references");
    if (version == 2) {
        out += "[Version] 2.1\n";
    }
    out += "# Hz S ";
    out += format == DataFormat::RI ? "RI" : format == DataFormat::MA ? "MA" : "DB";
    out += " R ";
    put(out, net.z0(0));
    out += "\n";
    if (version == 2) {
        out += "[Number of Ports] " + std::to_string(n) + "\n";
        if (n == 2)
            out += "[Two-Port Data Order] 12_21\n";
        out += "[Number of Frequencies] " + std::to_string(net.points()) + "\n[Reference]";
        for (int i = 0; i < n; ++i) {
            out += ' ';
            put(out, net.z0(i));
        }
        out += "\n[Matrix Format] Full\n[Network Data]\n";
    }
    auto pair = [&](cd c) {
        double a = c.real(), b = c.imag();
        if (format != DataFormat::RI) {
            a = format == DataFormat::MA ? std::abs(c) : 20.0 * std::log10(std::abs(c));
            b = std::arg(c) * 180.0 / M_PI;
        }
        out += ' ';
        put(out, a);
        out += ' ';
        put(out, b);
    };
    for (std::size_t k = 0; k < net.points(); ++k) {
        put(out, net.freqHz[k]);
        const CMatrix& s = net.s[k];
        if (n == 2 && version == 1) {
            pair(s(0, 0)), pair(s(1, 0)), pair(s(0, 1)), pair(s(1, 1));
        } else {
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j < n; ++j) {
                    if (j > 0 && j % 4 == 0)
                        out += "\n";
                    pair(s(i, j));
                }
                if (i + 1 < n)
                    out += "\n";
            }
        }
        out += "\n";
    }
    if (version == 2)
        out += "[End]\n";
    return out;
}

} // namespace rdt::signal
