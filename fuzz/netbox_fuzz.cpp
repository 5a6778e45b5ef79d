// NetBox dumps: the input is up to six pages separated by lines "=====" — sites, locations, racks,
// devices, power-feeds, cables — written into a folder and imported against the shipped catalog
// with the single-rack example as the base (its link classes take cable lengths). The imported
// design is then loaded, as `rdt import netbox` does before it writes anything.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "FuzzCommon.h"
#include "core/Catalog.h"
#include "core/Design.h"
#include "core/NetBox.h"
#include "core/Yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const auto catalog = rdt::core::loadShippedCatalog(RDT_DATA_DIR "/catalog");
    static const std::string base = rdt::core::readTextFile(RDT_DATA_DIR "/designs/single-rack.yaml");
    static const std::string dir = [] {
        char tmpl[] = "/tmp/rdt-fuzz-netbox-XXXXXX";
        return std::string(::mkdtemp(tmpl));
    }();
    static const char* const kPages[] = {"sites", "locations", "racks", "devices", "power-feeds", "cables"};
    const std::string in = rdt::fuzz::text(data, size);
    std::size_t from = 0;
    for (const char* page : kPages) {
        const std::string file = dir + "/" + page + ".json";
        if (from > in.size()) {
            std::filesystem::remove(file);
            continue;
        }
        const std::size_t end = in.find("\n=====\n", from);
        std::ofstream(file, std::ios::binary) << in.substr(from, end == std::string::npos ? std::string::npos : end - from);
        from = end == std::string::npos ? in.size() + 1 : end + 7;
    }
    rdt::fuzz::expectInputErrors([&] {
        const rdt::core::NetBoxImport out = rdt::core::importNetBox(dir, *catalog, base, "base.yaml");
        (void)rdt::core::loadDesignText(out.yaml, "imported.yaml", RDT_DATA_DIR "/catalog", catalog);
    });
    return 0;
}
