#include "core/AtomicFile.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/Error.h"

namespace rdt::core {

namespace fs = std::filesystem;

std::string temporaryFor(const std::string& path)
{
    return path + ".tmp-" + std::to_string(::getpid());
}

namespace {

/// Whether process `pid` still runs. A killed process can linger as a zombie until its parent (or
/// an init that reaps slowly) collects it; it writes nothing any more, so it counts as gone.
bool running(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (stat) {
        std::string line;
        std::getline(stat, line);
        const std::size_t close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size())
            return line[close + 2] != 'Z' && line[close + 2] != 'X';
        return true;
    }
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

} // namespace

int removeStaleTemporaries(const std::string& path)
{
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string prefix = target.filename().string() + ".tmp-";
    std::error_code ec;
    int removed = 0;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        long pid = 0;
        const char* first = name.data() + prefix.size();
        const char* last = name.data() + name.size();
        const auto [ptr, err] = std::from_chars(first, last, pid);
        if (err != std::errc() || ptr != last || pid <= 0)
            continue;
        // Still running (or not ours to judge): leave it.
        if (pid == ::getpid() || running(pid))
            continue;
        std::error_code rm;
        if (fs::remove(e.path(), rm))
            ++removed;
    }
    return removed;
}

bool syncFileAndFolder(const std::string& path)
{
    bool ok = true;
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd >= 0) {
        ok = ::fsync(fd) == 0;
        ::close(fd);
    }
    const fs::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ok = ::fsync(dfd) == 0 && ok;
        ::close(dfd);
    }
    return ok;
}

void writeFileAtomic(const std::string& path, std::string_view text, const std::string& what)
{
    removeStaleTemporaries(path);
    const std::string tmp = temporaryFor(path);
    const SourceLoc where{path, 0, 0, what};
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw InputError(where, "cannot write here (does the folder exist and is it writable?)");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ::close(fd);
            std::remove(tmp.c_str());
            throw InputError(where, "error while writing (is the disk full?)");
        }
        done += static_cast<std::size_t>(n);
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    std::error_code ec;
    if (synced)
        fs::rename(tmp, path, ec);
    if (!synced || ec) {
        // The rename's reason, not the clean-up's ("cannot replace the file: Success" for a folder).
        const std::string why = !synced ? "cannot flush it to disk"
                                : fs::is_directory(path) ? "it is a folder: give a file name"
                                                         : ec.message();
        std::error_code rm;
        fs::remove(tmp, rm);
        throw InputError(where, "cannot move the new file into place: " + why);
    }
    syncFileAndFolder(path);
}

} // namespace rdt::core
