// Benchmark: a 100-variant design study of the 24,576-GPU example (inlet 20…38 degC × 5 GPU caps ×
// 0/1 failed rotors) run by `rdt sweep` on 1 thread (the baseline), 2 OpenMP threads, and 2 and 4
// MPI ranks (mpirun, oversubscribed on 2 cores): wall time, speed-up against the baseline in the same
// run, and whether every variant's results are identical to the baseline's.
//   bench_sweep
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

std::string runCapture(const std::string& cmd, double& seconds)
{
    const auto t0 = std::chrono::steady_clock::now();
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p)
        return out;
    std::array<char, 65536> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0)
        out.append(buf.data(), n);
    ::pclose(p);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

nlohmann::json variants(const std::string& out)
{
    nlohmann::json v = nlohmann::json::parse(out)["variants"];
    for (auto& x : v)
        x.erase("seconds");
    return v;
}

} // namespace

int main()
{
    const std::string dir = std::filesystem::temp_directory_path() / ("rdt-bench-sweep-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string spec = dir + "/spec.yaml";
    std::ofstream(spec) << "sweep: 1\ndesign: " RDT_SOURCE_DIR
                           "/data/designs/meta-24k-roce.yaml\ntargets: " RDT_SOURCE_DIR
                           "/data/targets/meta-llama3.yaml\naxes:\n"
                           "  - {axis: inlet, from: 20 degC, to: 38 degC, step: 2 K}\n"
                           "  - {axis: gpu_cap, values: [450 W, 500 W, 600 W, 650 W, 700 W]}\n"
                           "  - {axis: fan_fail, values: [0, 1]}\n";
    const std::string rdt = RDT_BIN_DIR "/rdt sweep " + spec + " --json";
    const std::string mpi = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                            "OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -n ";
    double base = 0;
    const std::string baseOut = runCapture(rdt + " --threads 1 2>/dev/null", base);
    nlohmann::json ref;
    try {
        ref = variants(baseOut);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_sweep: the baseline run failed: %s\n", e.what());
        return 2;
    }
    std::printf("%-34s %4zu variants %7.2f s  1.00x (baseline)\n", "1 thread", ref.size(), base);
    const std::pair<const char*, std::string> runs[] = {
        {"2 OpenMP threads", rdt + " --threads 2 2>/dev/null"},
        {"2 MPI ranks", mpi + "2 " + rdt + " 2>/dev/null"},
        {"4 MPI ranks (oversubscribed)", mpi + "4 " + rdt + " 2>/dev/null"}};
    for (const auto& [what, cmd] : runs) {
        double s = 0;
        const std::string out = runCapture(cmd, s);
        bool same = false;
        try {
            same = variants(out) == ref;
        } catch (const std::exception&) {
        }
        std::printf("%-34s %4zu variants %7.2f s  %.2fx  %s\n", what, ref.size(), s, base / s,
                    same ? "results identical" : "RESULTS DIFFER");
    }
    std::filesystem::remove_all(dir);
    return 0;
}
