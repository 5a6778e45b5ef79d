#pragma once
// Real Redfish servers for the hil tests: DMTF's Redfish Mockup Server (vendored under
// tests/third_party) and tests/hil/fault_server.py, started on 127.0.0.1 at a free port and
// stopped when the fixture goes out of scope.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "hil/Http.h"
#include "tests/support/TempDir.h"

namespace rdt::test {

inline const std::string kHilDir = RDT_SOURCE_DIR "/tests/hil/";

/// A TCP port nobody listens on right now.
inline int freePort()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

class Server {
public:
    /// `args` after python3; `{port}` in them is replaced by the chosen port.
    explicit Server(std::vector<std::string> args, const std::string& log = "/dev/null", bool tls = false) : m_tls(tls)
    {
        port = freePort();
        for (std::string& a : args)
            if (const auto at = a.find("{port}"); at != std::string::npos)
                a.replace(at, 6, std::to_string(port));
        m_pid = ::fork();
        REQUIRE(m_pid >= 0);
        if (m_pid == 0) {
            std::vector<char*> argv{const_cast<char*>("python3"), const_cast<char*>("-B")};
            for (std::string& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            std::freopen(log.c_str(), "w", stdout);
            std::freopen(log.c_str(), "a", stderr);
            ::execvp("python3", argv.data());
            ::_exit(127);
        }
        // Ready when the service root answers.
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(15);
        hil::HttpOptions o;
        o.timeoutS = 1;
        o.retries = 0;
        o.insecure = true; // only to see it is up
        while (std::chrono::steady_clock::now() < until) {
            if (hil::httpFetch({{url() + "/redfish/v1/", "GET", "", ""}}, o)[0].status > 0)
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL("the Redfish server did not come up on port " << port);
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    ~Server()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    std::string url() const { return (m_tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port); }
    int port = 0;

private:
    bool m_tls = false;
    pid_t m_pid = -1;
};

/// DMTF's mockup server on a short-form mockup directory.
inline std::vector<std::string> mockupServer(const std::string& dir, const std::string& extra = "")
{
    std::vector<std::string> a{RDT_SOURCE_DIR "/tests/third_party/redfish-mockup-server/redfishMockupServer.py",
                               "-S",
                               "-D",
                               dir,
                               "-H",
                               "127.0.0.1",
                               "-p",
                               "{port}"};
    if (!extra.empty()) {
        a.push_back("-t");
        a.push_back(extra);
    }
    return a;
}

/// PATCH a resource of a server (a JSON body), returning the status.
inline long patch(const std::string& url, const std::string& json)
{
    hil::HttpOptions o;
    o.retries = 0;
    return hil::httpFetch({{url, "PATCH", json, ""}}, o)[0].status;
}

} // namespace rdt::test
