// OpenFOAM read-back (`rdt field --from-openfoam DIR`, `--intakes-from DIR`): the input is up to
// four parts separated by lines "=====" — rdt-racks.txt, rdt-compare.txt, the solver's log and one
// surfaceFieldValue.dat written for each of the patches rack_1_intake, rack_1_z1_intake,
// rack_1_z2_intake and rack_2_intake — in a folder laid out as an exported, run case.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "FuzzCommon.h"
#include "room/OpenFoamResult.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    namespace fs = std::filesystem;
    static const fs::path dir = [] {
        char tmpl[] = "/tmp/rdt-fuzz-openfoam-XXXXXX";
        return fs::path(::mkdtemp(tmpl));
    }();
    static const char* const kPatches[] = {"rack_1_intake", "rack_1_z1_intake", "rack_1_z2_intake", "rack_2_intake"};
    const std::string in = rdt::fuzz::text(data, size);
    std::string parts[4];
    std::size_t from = 0;
    for (std::string& part : parts) {
        if (from > in.size())
            break;
        const std::size_t end = in.find("\n=====\n", from);
        part = in.substr(from, end == std::string::npos ? std::string::npos : end - from);
        from = end == std::string::npos ? in.size() + 1 : end + 7;
    }
    std::ofstream(dir / "rdt-racks.txt", std::ios::binary) << parts[0];
    std::ofstream(dir / "rdt-compare.txt", std::ios::binary) << parts[1];
    std::ofstream(dir / "log.buoyantBoussinesqSimpleFoam", std::ios::binary) << parts[2];
    for (const char* patch : kPatches) {
        fs::create_directories(dir / "postProcessing" / patch / "0");
        std::ofstream(dir / "postProcessing" / patch / "0" / "surfaceFieldValue.dat", std::ios::binary) << parts[3];
    }
    rdt::fuzz::expectInputErrors([&] { (void)rdt::room::readOpenFoamResult(dir.string()); });
    return 0;
}
