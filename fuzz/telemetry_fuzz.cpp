// nvidia-smi --query-gpu CSV (units or nounits, [N/A] fields), also read as a power trace.
#include "FuzzCommon.h"
#include "hil/PowerTrace.h"
#include "hil/Telemetry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string t = rdt::fuzz::text(data, size);
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parseNvidiaSmiCsv(t, "fuzz.csv"); });
    // The same text as a power trace (timestamps, or every 100 ms without them).
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parsePowerTrace(t, "fuzz.csv"); });
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parsePowerTrace(t, "fuzz.csv", 0.1); });
    return 0;
}
