// Telemetry maps (`telemetry:` YAML with templates) against the single-rack example.
#include "FuzzCommon.h"
#include "core/Design.h"
#include "hil/TelemetryMap.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const rdt::core::Design design =
        rdt::core::loadDesign(RDT_DATA_DIR "/designs/single-rack.yaml", RDT_DATA_DIR "/catalog");
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::hil::parseTelemetryMap(rdt::fuzz::text(data, size), "fuzz.yaml", design); });
    return 0;
}
