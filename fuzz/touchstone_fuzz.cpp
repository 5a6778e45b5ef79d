// Touchstone 1.x and 2.x. The first byte picks the file name the parser sees (the port count of a
// version 1 file comes from it), the rest is the text.
#include "FuzzCommon.h"
#include "signal/Touchstone.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    static const char* names[] = {"f.s1p", "f.s2p", "f.s4p", "f.s8p", "f.ts", "f.s3p", "f.s16p", "f.s999p"};
    const char* name = names[data[0] % 8];
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::signal::parseTouchstone(rdt::fuzz::text(data + 1, size - 1), name); });
    return 0;
}
