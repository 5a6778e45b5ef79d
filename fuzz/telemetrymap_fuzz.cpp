// Telemetry maps (`telemetry:` YAML with templates) against the single-rack example and the
// liquid-to-liquid Catalina row (its loop's CDUs mapped by `loops:` targets).
#include "FuzzCommon.h"
#include "core/Design.h"
#include "hil/TelemetryMap.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const rdt::core::Design design =
        rdt::core::loadDesign(RDT_DATA_DIR "/designs/single-rack.yaml", RDT_DATA_DIR "/catalog");
    static const rdt::core::Design liquid =
        rdt::core::loadDesign(RDT_DATA_DIR "/designs/meta-catalina-gb200-l2l.yaml", RDT_DATA_DIR "/catalog");
    const std::string text = rdt::fuzz::text(data, size);
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parseTelemetryMap(text, "fuzz.yaml", design); });
    rdt::fuzz::expectInputErrors([&] { (void)rdt::hil::parseTelemetryMap(text, "fuzz.yaml", liquid); });
    return 0;
}
