#pragma once
/// \file ThroughputDetail.h
/// Inside the analysis library: GPU classes built from per-chassis clocks, and the failure cases
/// (GpuClocks.cpp), shared by analyseThroughput and the failure cases. Not a public interface.

#include <map>
#include <string>
#include <vector>

#include "analysis/Throughput.h"

namespace rdt::analysis {

/// GPU classes (chassis part, GPU part, cap) from every chassis' clock, each at its slowest
/// GPU's pace, with the specs they were read from.
struct ClassBuild {
    std::vector<GpuClass> classes;
    std::map<std::string, models::GpuSpec> specs;
    const core::Part* firstChassis = nullptr;
    std::string firstGpu; ///< slug of the first chassis' GPU
};

/// The classes of `clocks` (chassisClocks()) with their sustained TFLOPS at `mfu`.
ClassBuild buildClasses(const core::Design& d, const std::vector<std::vector<ChassisClock>>& clocks, double mfu);

/// One supply failure in every rack at once (rectifier, shelf, feed lost, utility outage), each rack at its own
/// worst of that kind: the GPUs capped to what the survivors carry and to normal operation's
/// limits, their clocks and TFLOPS. Kinds no rack is built for are left out.
std::vector<FailureCase> failureCases(const core::Design& d, const power::PowerResult& power,
                                      const thermal::ThermalResult& thermal, double mfu);

} // namespace rdt::analysis
