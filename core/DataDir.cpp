#include "core/DataDir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/Error.h"

#ifndef RDT_DATA_DIR
#define RDT_DATA_DIR "data"
#endif

namespace rdt::core {

namespace {

namespace fs = std::filesystem;

bool holdsCatalog(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_directory(dir / "catalog", ec);
}

/// `data/` beside the folder of the running executable, or empty when it cannot be told.
fs::path besideExecutable()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty())
        return {};
    return exe.parent_path().parent_path() / "data";
}

struct Choice {
    std::string dir, origin;
};

Choice choose()
{
    if (const char* env = std::getenv("RDT_DATA_DIR"); env && *env) {
        if (!holdsCatalog(env))
            throw InputError({"environment", 0, 0, "RDT_DATA_DIR"},
                             std::string(env) + " holds no catalog/ folder; point it at rdt's data folder (the one with "
                                 "catalog/, rules/ and designs/) or unset it");
        return {env, "RDT_DATA_DIR"};
    }
    const fs::path beside = besideExecutable();
    if (!beside.empty() && holdsCatalog(beside))
        return {beside.string(), "beside the executable"};
    if (holdsCatalog(RDT_DATA_DIR))
        return {RDT_DATA_DIR, "the source tree it was built from"};
    throw InputError({"environment", 0, 0, "RDT_DATA_DIR"},
                     "rdt's data folder was not found: not " + (beside.empty() ? std::string("beside the executable") : beside.string()) +
                         ", not the source tree it was built from (" RDT_DATA_DIR
                         "); set RDT_DATA_DIR to the folder with catalog/, rules/ and designs/");
}

} // namespace

std::string dataDir()
{
    // Chosen once a process (33 callers, some per sweep variant); a refusal is thrown again on
    // each call, since a static whose initialiser throws is initialised again next time.
    static const Choice chosen = choose();
    return chosen.dir;
}

std::string dataDirOrigin()
{
    try {
        const Choice c = choose();
        return "data " + c.dir + " (" + c.origin + ")";
    } catch (const InputError& e) {
        return e.message();
    }
}

} // namespace rdt::core
