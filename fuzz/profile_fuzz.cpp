// A rule profile against the real rule registry.
#include "FuzzCommon.h"
#include "analysis/Pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const rdt::core::CheckRegistry registry = rdt::analysis::makeRegistry();
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::core::Profile::loadText(rdt::fuzz::text(data, size), "fuzz-profile.yaml", registry); });
    return 0;
}
