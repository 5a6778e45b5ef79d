#pragma once
/// \file NcclLog.h
/// nccl-tests results as the tests print them: the text table (with or without the `root`
/// column; MPI launcher prefixes such as `[1,0]<stdout>:`; NCCL INFO/WARN lines interleaved) and
/// the CSV that `-F` writes (three header rows: placement, name, unit).

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace rdt::hil {

struct NcclRow {
    double sizeB = 0;
    long long count = 0;
    std::string type, redop;
    double timeUs = 0, algbwGBps = 0, busbwGBps = 0;             ///< out-of-place
    double inTimeUs = NAN, inAlgbwGBps = NAN, inBusbwGBps = NAN; ///< in-place (NaN when absent)
    int line = 0;
};

struct NcclLog {
    std::string file;
    std::string format;                   ///< "text" or "csv"
    /// The collective, "allreduce", "allgather", "reducescatter" or "alltoall": from the header
    /// (nccl-tests ≥ 2.18), else the file name; unset when neither says.
    std::optional<std::string> op;
    bool opFromHeader = false;            ///< `# Collective test starting: …` named it
    int ranks = 0;                        ///< `#  Rank N …` device lines (0 when not printed)
    std::string device;                   ///< GPU name from the first device line
    double avgBusbwGBps = NAN;            ///< the trailer's "Avg bus bandwidth"
    std::vector<NcclRow> rows;
};

/// Parse a log; InputError (file:line and the column) on a malformed or truncated log.
NcclLog parseNcclLog(const std::string& text, const std::string& fileName);
NcclLog readNcclLog(const std::string& path);

/// `allreduce`, `all_reduce`, `all_reduce_perf`, … → "allreduce" (the names NcclLog::op holds);
/// nullopt when unknown.
std::optional<std::string> ncclCollectiveName(const std::string& name);

} // namespace rdt::hil
