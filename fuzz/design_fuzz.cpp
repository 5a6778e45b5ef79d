// Design YAML with templates, count: expansion and the shipped catalog.
#include "FuzzCommon.h"
#include "core/Design.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::core::loadDesignText(rdt::fuzz::text(data, size), "fuzz.yaml", RDT_DATA_DIR "/catalog"); });
    return 0;
}
