#pragma once
// Start `rdt` in the background, its stdout and stderr to a file, for tests that signal or kill it
// while it runs (`rdt hil watch`, an interrupted `rdt sweep`).
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace rdt::test {

/// Start `rdt ARGS` in the source tree with stdout and stderr to `log`; returns its pid (-1 when fork fails).
inline pid_t spawnRdt(const std::vector<std::string>& args, const std::string& log)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        if (::chdir(RDT_SOURCE_DIR) != 0)
            ::_exit(126);
        std::vector<std::string> a = args;
        std::vector<char*> argv{const_cast<char*>(RDT_BIN_DIR "/rdt")};
        for (std::string& s : a)
            argv.push_back(s.data());
        argv.push_back(nullptr);
        ::execv(RDT_BIN_DIR "/rdt", argv.data());
        ::_exit(127);
    }
    return pid;
}

} // namespace rdt::test
