// One catalog part (NetBox devicetype fields plus the rdt: section), then the reference resolution.
#include "FuzzCommon.h"
#include "core/Catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors([&] {
        rdt::core::Catalog catalog;
        (void)catalog.loadText(rdt::fuzz::text(data, size), "fuzz-part.yaml");
        catalog.resolve();
    });
    return 0;
}
