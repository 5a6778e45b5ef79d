// Cluster files of the NCCL calibration set (data/calibration/nccl/*.yaml).
#include "FuzzCommon.h"
#include "analysis/NcclCluster.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    rdt::fuzz::expectInputErrors(
        [&] { (void)rdt::analysis::parseNcclCluster(rdt::fuzz::text(data, size), "fuzz.yaml"); });
    return 0;
}
