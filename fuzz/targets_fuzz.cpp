// A throughput targets file, and the same text read as a workload file (its checkpoint).
#include "FuzzCommon.h"
#include "analysis/Throughput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = rdt::fuzz::text(data, size);
    rdt::fuzz::expectInputErrors([&] { (void)rdt::analysis::Targets::loadText(text, "fuzz-targets.yaml"); });
    rdt::fuzz::expectInputErrors([&] { (void)rdt::analysis::Workload::loadText(text, "fuzz-workload.yaml"); });
    return 0;
}
