#include "hil/NcclLog.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

#include "core/Error.h"
#include "core/Yaml.h"

namespace rdt::hil {

namespace {

[[noreturn]] void fail(const std::string& file, int line, const std::string& what, const std::string& message)
{
    throw core::InputError(core::SourceLoc{file, line, 0, what}, message);
}

std::vector<std::string> splitWhitespace(const std::string& s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

std::vector<std::string> splitComma(const std::string& s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r')
            cur += c;
    }
    out.push_back(cur);
    for (std::string& x : out) {
        const auto b = x.find_first_not_of(" \t"), e = x.find_last_not_of(" \t");
        x = b == std::string::npos ? "" : x.substr(b, e - b + 1);
    }
    return out;
}

/// Remove a launcher's line prefix: Open MPI `--tag-output` (`[1,0]<stdout>:`), MPICH
/// `-prepend-rank` (`[0] `) and `srun -l` (`0: `); the leading blank after it too when the rest is
/// a `#` line.
std::string stripPrefix(const std::string& line)
{
    std::string rest = line;
    // A quoted log (`> ` in an issue or a mail) and Open MPI's `--timestamp-output`
    // ("Thu Jul 18 15:41:05 2024<stdout>:").
    while (rest.rfind("> ", 0) == 0 || rest == ">")
        rest = rest.size() > 2 ? rest.substr(2) : "";
    for (const char* tag : {"<stdout>:", "<stderr>:"}) {
        const auto at = rest.find(tag);
        if (at != std::string::npos && at < 48 && (rest[0] != '[' || rest.find(']') > at))
            rest = rest.substr(at + 9);
    }
    if (!rest.empty() && rest[0] == '[') {
        const auto close = rest.find(']');
        const bool rank =
            close != std::string::npos && rest.find_first_not_of("0123456789,", 1) == close; // [1,0] or [0]
        if (rank) {
            rest = rest.substr(close + 1);
            if (rest.rfind("<stdout>:", 0) == 0 || rest.rfind("<stderr>:", 0) == 0)
                rest = rest.substr(9);
        }
    } else {
        const auto colon = rest.find(':');
        if (colon != std::string::npos && colon > 0 && colon < 8 &&
            rest.find_first_not_of("0123456789 ", 0) == colon) // "0: " or " 12: "
            rest = rest.substr(colon + 1);
    }
    const auto first = rest.find_first_not_of(' ');
    if (first != std::string::npos && rest[first] == '#')
        rest = rest.substr(first);
    return rest;
}

/// MPICH's `-prepend-rank` can land inside a row when ranks' output interleaves ("-1[0]    1626.5"):
/// drop every "[digits]" from a result row.
std::string dropRankTags(const std::string& l)
{
    std::string out;
    for (std::size_t i = 0; i < l.size(); ++i) {
        if (l[i] == '[') {
            std::size_t j = i + 1;
            while (j < l.size() && std::isdigit(static_cast<unsigned char>(l[j])))
                ++j;
            if (j > i + 1 && j < l.size() && l[j] == ']') {
                out += ' ';
                i = j;
                continue;
            }
        }
        out += l[i];
    }
    return out;
}

/// The value an NCCL setting is given in a line: `NCCL_ALGO=Ring` (a command line's `-x`, an
/// `export`), or NCCL's own "NCCL_ALGO set by environment to Ring".
std::string ncclSetting(const std::string& l, const std::string& name)
{
    const auto at = l.find(name);
    if (at == std::string::npos)
        return "";
    std::size_t v = at + name.size();
    if (v < l.size() && l[v] == '=')
        ++v;
    else if (const std::string_view env = " set by environment to"; l.compare(v, env.size(), env) == 0)
        v += env.size();
    else
        return "";
    while (v < l.size() && (l[v] == ' ' || l[v] == '"' || l[v] == '\''))
        ++v;
    std::string out;
    while (v < l.size() && !std::isspace(static_cast<unsigned char>(l[v])) && l[v] != '"' && l[v] != '\'')
        out += l[v++];
    return out;
}

bool toNumber(const std::string& s, double& v)
{
    const char* b = s.data();
    const char* e = b + s.size();
    const auto r = std::from_chars(b, e, v);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(v);
}

} // namespace

std::optional<std::string> ncclCollectiveName(const std::string& name)
{
    std::string s;
    for (char c : name)
        if (c != '_' && c != '-')
            s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* n : {"allreduce", "allgather", "reducescatter", "alltoall"})
        if (s.find(n) != std::string::npos)
            return std::string(n);
    return std::nullopt;
}

NcclLog parseNcclLog(const std::string& text, const std::string& file)
{
    NcclLog log;
    log.file = file;
    const auto slash = file.find_last_of('/');
    log.op = ncclCollectiveName(slash == std::string::npos ? file : file.substr(slash + 1));
    std::vector<std::string> lines;
    {
        std::istringstream in(text);
        std::string l;
        while (std::getline(in, l)) {
            if (!l.empty() && l.back() == '\r')
                l.pop_back();
            lines.push_back(stripPrefix(l));
        }
    }
    const bool csv = std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("size,", 0) == 0 || l.find(",size,count,") != std::string::npos;
    });
    log.format = csv ? "csv" : "text";
    // nccl-tests 2.18 and later name the collective in the header ("# Collective test starting:
    // all_reduce_perf"); that beats the file name, which users rename.
    for (const std::string& l : lines) {
        const auto at = l.find("Collective test starting:");
        if (at == std::string::npos)
            continue;
        if (const auto op = ncclCollectiveName(l.substr(at + 25))) {
            log.op = op;
            log.opFromHeader = true;
        }
        break;
    }

    // Column names from the header row; out-of-place comes first, in-place second.
    std::vector<std::string> header;
    int headerLine = 0;
    bool trailer = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        const int lineNo = static_cast<int>(i + 1);
        for (auto [name, into] : {std::pair<const char*, std::string*>{"NCCL_ALGO", &log.ncclAlgo},
                                  {"NCCL_PROTO", &log.ncclProto}})
            if (const std::string v = ncclSetting(l, name); !v.empty())
                *into = v;
        for (const char* name : {"NCCL_NVLS_ENABLE", "NCCL_COLLNET_ENABLE", "NCCL_MIN_CTAS", "NCCL_MAX_CTAS",
                                 "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS"})
            if (const std::string v = ncclSetting(l, name); !v.empty())
                log.settings[name] = v;
        if (l.find("NCCL INFO") != std::string::npos)
            continue;
        if (l.find("NCCL WARN") != std::string::npos)
            continue; // NCCL warns on healthy runs too (e.g. no libibverbs on a single node)
        if (l.find("Test NCCL failure") != std::string::npos || l.find("Test CUDA failure") != std::string::npos ||
            l.find("Test failure") != std::string::npos)
            fail(file, lineNo, "run", "the nccl-tests run failed here: " + l);
        // A rendering that drops the `#` (a web page's copy): the header and trailer lines without it.
        const std::vector<std::string> words = csv ? std::vector<std::string>{} : splitWhitespace(l);
        const bool bareHeader = !csv && header.empty() && std::find(words.begin(), words.end(), "size") != words.end() &&
                                std::find(words.begin(), words.end(), "busbw") != words.end();
        const bool bareTrailer = !csv && !words.empty() && (words[0] == "Out" || words[0] == "Avg") &&
                                 (l.find("Out of bounds values") != std::string::npos ||
                                  l.find("Avg bus bandwidth") != std::string::npos);
        const bool bareRank = !csv && words.size() >= 4 && words[0] == "Rank" && l.find(" Pid ") != std::string::npos;
        if (!csv && (l.rfind("#", 0) == 0 || bareHeader || bareTrailer || bareRank)) {
            const std::vector<std::string> w = splitWhitespace(l.substr(l.rfind("#", 0) == 0 ? 1 : 0));
            if (w.size() >= 2 && w[0] == "Rank") {
                ++log.ranks;
                if (log.device.empty()) {
                    const auto br = l.find("] ");
                    if (br != std::string::npos)
                        log.device = l.substr(br + 2);
                }
            } else if (std::find(w.begin(), w.end(), "size") != w.end() &&
                       std::find(w.begin(), w.end(), "busbw") != w.end()) {
                header = w;
                headerLine = lineNo;
            } else if (l.find("Avg bus bandwidth") != std::string::npos) {
                const auto colon = l.find(':');
                double v = NAN;
                const std::vector<std::string> after =
                    colon == std::string::npos ? std::vector<std::string>{} : splitWhitespace(l.substr(colon + 1));
                if (after.empty() || !toNumber(after[0], v))
                    fail(file, lineNo, "Avg bus bandwidth", "no number after \"Avg bus bandwidth :\"");
                log.avgBusbwGBps = v;
                trailer = true;
            } else if (l.find("Out of bounds values") != std::string::npos) {
                // "# Out of bounds values : 0 OK" — anything else means the run computed wrong data.
                if (l.find(" OK") == std::string::npos)
                    fail(file, lineNo, "Out of bounds values",
                         "the run reported wrong results: " + l.substr(l.find("Out of bounds")));
                trailer = true;
            }
            continue;
        }
        if (csv && l.rfind("#", 0) == 0)
            continue;
        if (csv && header.empty()) {
            const std::vector<std::string> f = splitComma(l);
            if (std::find(f.begin(), f.end(), "size") != f.end() && std::find(f.begin(), f.end(), "busbw") != f.end()) {
                header = f;
                headerLine = lineNo;
            }
            continue;
        }
        const std::vector<std::string> f = csv ? splitComma(l) : splitWhitespace(dropRankTags(l));
        if (f.empty() || (f.size() == 1 && f[0].empty()))
            continue;
        if (header.empty()) {
            if (!csv && std::isdigit(static_cast<unsigned char>(f[0][0])) && f.size() >= 8)
                fail(file, lineNo, "header", "a result row before the column header (\"# size count type …\")");
            continue; // banner text, hostnames, launcher output
        }
        if (trailer)
            continue;
        // A data row.
        double first = 0;
        if (!toNumber(f[0], first)) {
            // Other text between the header and the trailer (a launcher line; the CSV unit row).
            if (!csv || log.rows.empty())
                continue;
            fail(file, lineNo, "size", "not a size in bytes: \"" + f[0] + "\"");
        }
        if (f.size() != header.size())
            fail(file, lineNo, "row",
                 "a result row with " + std::to_string(f.size()) + " columns, the header (line " +
                     std::to_string(headerLine) + ") has " + std::to_string(header.size()) +
                     (f.size() < header.size() ? " — is the log truncated?" : ""));
        NcclRow r;
        r.line = lineNo;
        int seenTime = 0, seenAlg = 0, seenBus = 0;
        for (std::size_t c = 0; c < header.size(); ++c) {
            const std::string& name = header[c];
            const std::string& v = f[c];
            auto num = [&](const char* what) {
                double x = 0;
                if (!toNumber(v, x))
                    fail(file, lineNo, what,
                         std::string("column \"") + what + "\": not a number: \"" + v + "\" (header line " +
                             std::to_string(headerLine) + ")");
                if (x < 0) // a size, count, time or bandwidth below zero: no run measures that
                    fail(file, lineNo, what,
                         std::string("column \"") + what + "\": negative: \"" + v + "\" (header line " +
                             std::to_string(headerLine) + ")");
                return x;
            };
            if (name == "size")
                r.sizeB = num("size");
            else if (name == "count") {
                // An element count is an integer a GPU can hold; beyond 2^53 a double is not exact.
                const double n = num("count");
                if (n > 9.007199254740992e15 || n != std::floor(n))
                    fail(file, lineNo, "count",
                         "column \"count\": not a whole number of elements up to 2^53: \"" + v + "\" (header line " +
                             std::to_string(headerLine) + ")");
                r.count = static_cast<long long>(n);
            } else if (name == "type")
                r.type = v;
            else if (name == "redop")
                r.redop = v;
            else if (name == "time" || name == "cputime") {
                (seenTime++ == 0 ? r.timeUs : r.inTimeUs) = num("time");
            } else if (name == "algbw") {
                (seenAlg++ == 0 ? r.algbwGBps : r.inAlgbwGBps) = num("algbw");
            } else if (name == "busbw") {
                (seenBus++ == 0 ? r.busbwGBps : r.inBusbwGBps) = num("busbw");
            }
        }
        // Sizes do not fall within one data type and reduction (small AllGather sizes round to
        // repeated 0-byte rows; `-d all` / `-o all` start a new sweep with the next type or op).
        if (!log.rows.empty() && r.type == log.rows.back().type && r.redop == log.rows.back().redop &&
            r.sizeB < log.rows.back().sizeB)
            fail(file, lineNo, "size", "sizes must not fall down the table");
        log.rows.push_back(r);
    }
    if (header.empty())
        fail(file, 0, "header", "no nccl-tests result table (a \"size count type … busbw\" header) in the file");
    if (log.rows.empty())
        fail(file, headerLine, "rows", "the result table has no rows — is the log truncated?");
    if (!csv && !trailer) {
        // Cut after its rows (a README's excerpt, a run that crashed after printing): every row is
        // whole (a row cut short is an error above), so the rows stand; say so.
        log.trailer = false;
        log.notes.push_back("no \"# Out of bounds values\" / \"# Avg bus bandwidth\" lines after the last row (line " +
                            std::to_string(log.rows.back().line) +
                            "): the log ends after its rows; its rows are read, its run's own check is not");
    }
    // Without rank lines: the ranks nccl-tests' busbw/algbw factor gives at the largest size.
    if (log.ranks == 0 && log.op)
        log.ranksFromFactor = ranksFromBusbwFactor(log, *log.op);
    return log;
}

int ranksFromBusbwFactor(const NcclLog& log, const std::string& op)
{
    if (log.rows.empty())
        return 0;
    const NcclRow& big = log.rows.back();
    if (!(big.algbwGBps > 0 && big.busbwGBps > 0))
        return 0;
    const double k = big.busbwGBps / big.algbwGBps;
    // Both printed to 2 decimals: the factor's uncertainty, and the ranks' it gives.
    const double dk = k * (0.005 / big.busbwGBps + 0.005 / big.algbwGBps);
    double n = NAN, dn = INFINITY;
    if (op == "allreduce" && k < 1.999) {
        n = 2 / (2 - k);
        dn = 2 * dk / ((2 - k) * (2 - k));
    } else if ((op == "allgather" || op == "reducescatter") && k < 0.999) {
        n = 1 / (1 - k);
        dn = dk / ((1 - k) * (1 - k));
    }
    // Trusted while the printed figures tell whole ranks apart.
    if (std::isfinite(n) && n >= 1.5 && dn < 0.4 && std::abs(n - std::round(n)) < 0.5 - dn)
        return static_cast<int>(std::round(n));
    return 0;
}

NcclLog readNcclLog(const std::string& path)
{
    return parseNcclLog(core::readTextFile(path), path);
}

} // namespace rdt::hil
