// A throughput targets file.
#include "FuzzCommon.h"
#include "analysis/Throughput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::analysis::Targets::loadText(rdt::fuzz::text(data, size), "fuzz-targets.yaml"); });
    return 0;
}
