// A channel spec (trace, twinax and Touchstone segments), synthesised.
#include "FuzzCommon.h"
#include "signal/ChannelSpec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors([&] {
        (void)rdt::signal::synthesiseChannelText(rdt::fuzz::text(data, size), RDT_DATA_DIR "/channels/specs/fuzz.yaml");
    });
    return 0;
}
