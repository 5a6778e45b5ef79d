#pragma once
// Runs the real `rdt` binary from the repository root (fixture paths read as users type them) and
// captures its output, exit status and wall time. Shared by the CLI test files.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string>

namespace rdt::test {

struct Run {
    int code = -1;   ///< exit status; -1 when killed by a signal (a crash)
    std::string out; ///< stdout, and stderr unless dropped
    double seconds = 0;
};

/// `env` goes before the command (e.g. "RDT_MAX_INPUT_MB=1").
inline Run runRdt(const std::string& args, bool withStderr = true, const std::string& env = "")
{
    const std::string cmd = "cd " RDT_SOURCE_DIR " && " + env + " " RDT_BIN_DIR "/rdt " + args +
                            (withStderr ? " 2>&1" : " 2>/dev/null");
    const auto t0 = std::chrono::steady_clock::now();
    Run r;
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0)
        r.out.append(buf.data(), n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace rdt::test
