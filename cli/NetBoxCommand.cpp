#include <cstdio>

#include "analysis/Pipeline.h"
#include "cli/Guarded.h"
#include "cli/HilCommand.h"
#include "core/AtomicFile.h"
#include "core/NetBox.h"
#include "core/Yaml.h"

namespace rdt::cli {

int runNetBoxImport(const std::string& dump, const std::string& output, const std::string& base)
{
    return guarded([&] {
        const std::string catalogDir = analysis::dataDir() + "/catalog";
        const std::string baseText = base.empty() ? std::string() : core::readTextFile(base);
        // The base's own catalog folders hold parts its device types may name.
        const auto catalog = baseText.empty() ? core::loadShippedCatalog(catalogDir)
                                              : core::loadDesignCatalog(baseText, base, catalogDir, nullptr);
        const core::NetBoxImport in = core::importNetBox(dump, *catalog, baseText, base);
        // The written design must load: check it before it replaces anything.
        try {
            (void)core::loadDesignText(in.yaml, output, catalogDir, catalog);
        } catch (const core::InputError& e) {
            throw core::importErrorAtSource(e, in, base); // at the device or base file, not the unwritten one
        }
        core::writeFileAtomic(output, in.yaml, "-o");
        std::printf("%s: %zu sites, %zu racks, %zu devices placed\n", output.c_str(), in.sites, in.racks, in.devices);
        if (in.powerFeeds > 0 || in.powerCables > 0)
            std::printf("  %zu power feeds, %lld shelf power cables (feeds A/B and their available power)\n",
                        in.powerFeeds, in.powerCables);
        for (const std::string& n : in.notes)
            std::printf("  %s\n", n.c_str());
        for (std::size_t i = 0; i < in.unplaced.size() && i < 20; ++i)
            std::printf("  not placed (no rack or position): %s\n", in.unplaced[i].c_str());
        if (in.unplaced.size() > 20)
            std::printf("  … and %zu more not placed\n", in.unplaced.size() - 20);
        return kExitOk;
    });
}

int runNetBoxExport(const std::string& design, const std::string& dir, std::size_t pageSize)
{
    return guarded([&] {
        const core::Design d = core::loadDesign(design, analysis::dataDir() + "/catalog");
        std::vector<std::string> notes;
        const std::vector<std::string> files = core::exportNetBox(d, dir, pageSize, &notes);
        std::printf("%s: %zu racks in %zu files\n", dir.c_str(), d.racks.size(), files.size());
        for (const std::string& n : notes)
            std::printf("  %s\n", n.c_str());
        return kExitOk;
    });
}

} // namespace rdt::cli
