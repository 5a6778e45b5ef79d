#pragma once
/// \file NcclLog.h
/// nccl-tests results as the tests print them: the text table (with or without the `root`
/// column; MPI launcher prefixes such as `[1,0]<stdout>:`; NCCL INFO/WARN lines interleaved) and
/// the CSV that `-F` writes (three header rows: placement, name, unit).

#include <cmath>
#include <map>
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
    /// Without rank lines, the ranks the largest row's busbw/algbw gives (nccl-tests' factor:
    /// 2(n − 1)/n for AllReduce, (n − 1)/n for AllGather and ReduceScatter); 0 when it cannot tell.
    int ranksFromFactor = 0;
    /// NCCL settings the log names (its command line's `-x NCCL_ALGO=…`, an `export`, or NCCL's
    /// "NCCL_ALGO set by environment to …" line); empty when it does not.
    std::string ncclAlgo, ncclProto;
    /// Other NCCL settings the log names that bear on its bandwidth (NCCL_NVLS_ENABLE,
    /// NCCL_COLLNET_ENABLE, NCCL_MIN_CTAS, NCCL_MAX_CTAS, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS),
    /// by name, the last value written.
    std::map<std::string, std::string> settings;
    bool trailer = true; ///< false: the log ends after its rows (cut by its author or a crash; noted)
    std::vector<std::string> notes; ///< what the reader accepted that a user should know
    std::vector<NcclRow> rows;
};

/// The ranks nccl-tests' busbw/algbw factor for `op` gives at the log's largest size (0 when the
/// printed decimals cannot tell whole ranks apart, or op has no such factor).
int ranksFromBusbwFactor(const NcclLog& log, const std::string& op);

/// Parse a log; InputError (file:line and the column) on a malformed log or a row cut short. A log
/// that ends after its last whole row (no trailer) is read, with a note. Formats: the text table
/// with or without `#` (a rendering that drops it), `cputime` for `time` (`-C`), per-iteration
/// columns (`-I`); launcher prefixes (Open MPI `[1,0]<stdout>:` with or without a timestamp,
/// MPICH `[0] ` also inside a row, `srun -l`), quoted (`> `) lines.
NcclLog parseNcclLog(const std::string& text, const std::string& fileName);
NcclLog readNcclLog(const std::string& path);

/// `allreduce`, `all_reduce`, `all_reduce_perf`, … → "allreduce" (the names NcclLog::op holds);
/// nullopt when unknown.
std::optional<std::string> ncclCollectiveName(const std::string& name);

} // namespace rdt::hil
