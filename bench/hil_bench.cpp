// Benchmark: polling the 24,576-GPU example's racks over Redfish. Every Grand Teton (2 per rack) and
// power shelf (2 per rack) of data/designs/meta-24k-roce.yaml is a chassis of one generated mockup
// (tests/hil/mockup.py --lean) served by DMTF's Redfish Mockup Server on 127.0.0.1: 1,536 racks,
// 6,144 mapped parts, one sweep = 9,216 requests. Prints requests per second, time per sweep and
// memory against the target (a full sweep under 5 s), and the same in the same run for the
// baseline of polling one request at a time (on one pod, extrapolated), and with the fleet split
// over two server processes (to tell the client's limit from the server's).
//   bench_hil [sweeps, default 3]
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "BenchUtil.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/Pipeline.h"
#include "hil/Redfish.h"

using namespace rdt;

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int freePort()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

struct Server {
    pid_t pid = -1;
    int port = 0;
    Server(const std::string& dir)
    {
        port = freePort();
        pid = ::fork();
        if (pid == 0) {
            std::freopen("/dev/null", "w", stdout);
            std::freopen("/dev/null", "w", stderr);
            const std::string script = RDT_SOURCE_DIR "/tests/third_party/redfish-mockup-server/redfishMockupServer.py";
            const std::string p = std::to_string(port);
            ::execlp("python3", "python3", "-B", script.c_str(), "-S", "-D", dir.c_str(), "-H", "127.0.0.1", "-p",
                     p.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        hil::HttpOptions o;
        o.retries = 0;
        o.timeoutS = 1;
        for (int i = 0; i < 300; ++i) {
            if (hil::httpFetch({{url() + "/redfish/v1/", "GET", "", ""}}, o)[0].status == 200)
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::fprintf(stderr, "bench_hil: the mockup server did not start\n");
        std::exit(2);
    }
    ~Server()
    {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

std::string mapText(const std::vector<std::string>& urls, const std::string& parts)
{
    std::string t = "telemetry: 1\ndefaults: {timeout: 10 s, retries: 1, concurrency: 64, per_bmc: 8}\ntargets:\n";
    // With two servers, the pods (pod1 … pod8) alternate between them.
    if (urls.size() == 1) {
        t += "  - {parts: '" + parts + "/gt*', bmc: '" + urls[0] + "', chassis: 'r{rack_index}-{slot}'}\n";
        t += "  - {parts: '" + parts + "/psu-*', bmc: '" + urls[0] + "', chassis: 'r{rack_index}-{slot}'}\n";
    } else {
        for (int pod = 1; pod <= 8; ++pod) {
            char p[16];
            std::snprintf(p, sizeof p, "dc1/pod%d/*", pod);
            const std::string& u = urls[static_cast<std::size_t>(pod % 2)];
            t += std::string("  - {parts: '") + p + "/gt*', bmc: '" + u + "', chassis: 'r{rack_index}-{slot}'}\n";
            t += std::string("  - {parts: '") + p + "/psu-*', bmc: '" + u + "', chassis: 'r{rack_index}-{slot}'}\n";
        }
    }
    return t;
}

struct Figures {
    std::size_t parts = 0, requests = 0, errors = 0;
    double sweep = 0, cpu = 0;
};

Figures poll(const core::Design& d, const std::string& map, int sweeps, int concurrency)
{
    hil::TelemetryMap m = hil::parseTelemetryMap(map, "bench-map.yaml", d);
    m.http.maxConcurrent = concurrency;
    if (concurrency == 1)
        m.http.maxPerHost = 1;
    hil::Poller poller(m);
    poller.poll(); // service roots probed, connections warm
    Figures f;
    f.parts = m.parts.size();
    std::vector<double> t;
    const double cpu0 = cpuSeconds();
    for (int i = 0; i < sweeps; ++i) {
        const hil::Sample s = poller.poll();
        t.push_back(s.seconds);
        f.requests = s.requests;
        f.errors += s.errorCount();
    }
    f.cpu = (cpuSeconds() - cpu0) / sweeps;
    std::sort(t.begin(), t.end());
    f.sweep = t[t.size() / 2];
    return f;
}

void print(const char* what, const Figures& f, double scale, double target)
{
    std::printf("%-52s %6zu parts %6zu req %8.2f s/sweep %7.0f req/s  client CPU %5.2f s  %4.0f MB  %zu errors", what,
                f.parts, f.requests, f.sweep * scale, f.requests / f.sweep, f.cpu * scale, peakMb(), f.errors);
    if (target > 0)
        std::printf("  %.2fx target (%.0f s)", f.sweep * scale / target, target);
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv)
{
    const int sweeps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    try {
        const std::string data = analysis::dataDir();
        const core::Design d = core::loadDesign(data + "/designs/meta-24k-roce.yaml", data + "/catalog");
        const std::string dir = (std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                                           : std::filesystem::temp_directory_path()) /
                                ("rdt-bench-hil-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        {
            std::ofstream list(dir + "/list");
            for (std::size_t r = 0; r < d.racks.size(); ++r)
                for (const core::Slot& s : d.racks[r].slots) {
                    const std::string name = "r" + std::to_string(r) + "-" + s.name;
                    if (s.part->kind == core::PartKind::Chassis)
                        list << "grand-teton " << name << "\n";
                    else if (s.part->kind == core::PartKind::PowerShelf)
                        list << "power-shelf " << name << "\n";
                }
        }
        const auto g0 = std::chrono::steady_clock::now();
        if (std::system(("python3 -B " RDT_SOURCE_DIR "/tests/hil/mockup.py --lean --out " + dir + "/m --list " + dir +
                         "/list > /dev/null")
                            .c_str()) != 0) {
            std::fprintf(stderr, "bench_hil: mockup.py failed\n");
            return 2;
        }
        std::printf("mockup of %zu racks generated in %.1f s\n", d.racks.size(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count());
        {
            Server one(dir + "/m");
            const Figures seq = poll(d, mapText({one.url()}, "dc1/pod1/*"), 1, 1);
            print("one pod (192 racks), one request at a time (baseline)", seq, 8.0, 0);
            const Figures all = poll(d, mapText({one.url()}, "*"), sweeps, 64);
            print("24k cluster (1,536 racks), concurrent, 1 server", all, 1.0, 5.0);
            std::printf("concurrent polling: %.1fx the baseline's rate\n",
                        (all.requests / all.sweep) / (seq.requests / seq.sweep));
        }
        {
            Server a(dir + "/m"), b(dir + "/m");
            const Figures two = poll(d, mapText({a.url(), b.url()}, "*"), sweeps, 64);
            print("24k cluster (1,536 racks), concurrent, 2 servers", two, 1.0, 5.0);
        }
        std::filesystem::remove_all(dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_hil: %s\n", e.what());
        return 2;
    }
    return 0;
}
