// DCGM telemetry: `dcgmi dmon` text and DCGM exporter (Prometheus) text.
#include "FuzzCommon.h"
#include "hil/Telemetry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string t = rdt::fuzz::text(data, size);
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parseDcgmDmon(t, "fuzz.dmon"); });
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parsePrometheusDcgm(t, "fuzz.prom"); });
    return 0;
}
