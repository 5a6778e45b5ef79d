// Design YAML with templates, count: expansion and the shipped catalog (loaded once: reading the
// catalog's ~50 files per input held the harness to ~150 inputs/s).
#include "FuzzCommon.h"
#include "core/Design.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const auto shipped = rdt::core::loadShippedCatalog(RDT_DATA_DIR "/catalog");
    rdt::fuzz::expectInputErrors([&] {
        (void)rdt::core::loadDesignText(rdt::fuzz::text(data, size), "fuzz.yaml", RDT_DATA_DIR "/catalog", shipped);
    });
    return 0;
}
