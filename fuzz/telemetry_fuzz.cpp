// nvidia-smi --query-gpu CSV (units or nounits, [N/A] fields).
#include "FuzzCommon.h"
#include "hil/Telemetry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::hil::parseNvidiaSmiCsv(rdt::fuzz::text(data, size), "fuzz.csv"); });
    return 0;
}
