// nccl-tests output (text with or without root, MPI prefixes, NCCL INFO lines, -F CSV).
#include "FuzzCommon.h"
#include "hil/NcclLog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::hil::parseNcclLog(rdt::fuzz::text(data, size), "fuzz.log"); });
    return 0;
}
