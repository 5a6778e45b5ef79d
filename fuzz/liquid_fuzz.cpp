// A design's liquid section solved (issue 37): the loader's `liquid:` reader, the catalog's liquid
// and CDU parts, then every loop's network with its pump control. Every input ends in a result or a
// located InputError; designs of more than 64 racks are loaded only (the solve's cost, not its
// correctness, grows with them).
#include "FuzzCommon.h"
#include "core/Design.h"
#include "liquid/LiquidDesign.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const auto shipped = rdt::core::loadShippedCatalog(RDT_DATA_DIR "/catalog");
    rdt::fuzz::expectInputErrors([&] {
        const rdt::core::Design d =
            rdt::core::loadDesignText(rdt::fuzz::text(data, size), "fuzz.yaml", RDT_DATA_DIR "/catalog", shipped);
        if (d.racks.size() <= 64)
            (void)rdt::liquid::computeLiquid(d);
    });
    return 0;
}
