// Benchmark: Touchstone parse throughput on a large generated file (16 ports, 10,000 points, RI),
// against a baseline in the same run: strtod over the same bytes (the floor for any text parser).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "signal/Touchstone.h"

int main()
{
    constexpr int kPorts = 16, kPoints = 10000;
    rdt::signal::Network n;
    n.z0 = Eigen::VectorXd::Constant(kPorts, 50.0);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    for (int k = 0; k < kPoints; ++k) {
        n.freqHz.push_back(1e7 * (k + 1));
        rdt::signal::CMatrix s(kPorts, kPorts);
        for (int i = 0; i < kPorts; ++i)
            for (int j = 0; j < kPorts; ++j)
                s(i, j) = {u(rng), u(rng)};
        n.s.push_back(s);
    }
    const std::string text = rdt::signal::writeTouchstone(n, 1);
    const double mb = static_cast<double>(text.size()) / 1e6;
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    const rdt::signal::Network back = rdt::signal::parseTouchstone(text, "bench.s16p");
    const double parse = std::chrono::duration<double>(Clock::now() - t0).count();
    t0 = Clock::now();
    double sum = 0;
    for (const char* p = text.c_str(); *p;) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p) {
            ++p;
            continue;
        }
        sum += v;
        p = end;
    }
    const double floor = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("Touchstone parse: %d ports x %d points, %.1f MB (checksum %.3g, %zu points read)\n", kPorts, kPoints,
                mb, sum, back.points());
    std::printf("%-34s %8.1f MB/s\n", "rdt parseTouchstone", mb / parse);
    std::printf("%-34s %8.1f MB/s  (rdt at %.2fx)\n", "baseline: strtod over the bytes", mb / floor, floor / parse);
    std::printf("target: >= 100 MB/s on one core -> %s\n", mb / parse >= 100 ? "met" : "MISSED");
    return 0;
}
