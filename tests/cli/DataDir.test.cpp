// Where rdt reads its data from (trust trial, 2026-12-07): a copy of bin/rdt beside its own data/
// read the build machine's source tree without a word, so edits to the copy's catalog were
// ignored; a wrong RDT_DATA_DIR failed on the first file it missed (".../throughput/nccl.yaml").
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

/// Runs `rdt` at `exe` with RDT_DATA_DIR unset (ctest sets it for every test) or set to `env`.
rdt::test::Run runAt(const std::string& exe, const std::string& args, const std::string& env = "")
{
    const std::string set = env.empty() ? "env -u RDT_DATA_DIR" : "env RDT_DATA_DIR=" + env;
    const std::string cmd = "cd " RDT_SOURCE_DIR " && " + set + " " + exe + " " + args + " 2>&1";
    rdt::test::Run r;
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

} // namespace

TEST_CASE("a copied rdt reads the data/ beside its bin/, and says which data it reads", "[cli][data]")
{
    rdt::test::TempDir dir;
    const fs::path root = dir.path, source = RDT_SOURCE_DIR "/data";
    fs::create_directories(root / "bin");
    fs::copy_file(RDT_BIN_DIR "/rdt", root / "bin" / "rdt");
    fs::permissions(root / "bin" / "rdt", fs::perms::owner_all);
    // The copy's data: the shipped folders, and a catalog with one part of its own.
    fs::create_directories(root / "data");
    for (const fs::directory_entry& e : fs::directory_iterator(source))
        if (e.path().filename() != "catalog")
            fs::create_directory_symlink(e.path(), root / "data" / e.path().filename());
    fs::copy(source / "catalog", root / "data" / "catalog", fs::copy_options::recursive);
    {
        std::ifstream in(source / "catalog" / "dac-400g-osfp-1m.yaml");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text.replace(text.find("slug: dac-400g-osfp-1m"), 22, "slug: dac-only-in-the-copy");
        std::ofstream(root / "data" / "catalog" / "dac-only-in-the-copy.yaml") << text;
    }
    const std::string copy = (root / "bin" / "rdt").string();

    const rdt::test::Run version = runAt(copy, "--version");
    INFO(version.out);
    CHECK(version.code == 0);
    CHECK_THAT(version.out, Contains("data " + (root / "data").string() + " (beside the executable)"));
    const rdt::test::Run part = runAt(copy, "catalog show dac-only-in-the-copy");
    INFO(part.out);
    CHECK(part.code == 0);
    // The built binary (build/bin has no data/ beside it) reads the source tree, and says so; it
    // does not know the copy's part.
    const rdt::test::Run built = runAt(RDT_BIN_DIR "/rdt", "--version");
    CHECK_THAT(built.out, Contains("data " RDT_SOURCE_DIR "/data (the source tree it was built from)"));
    CHECK(runAt(RDT_BIN_DIR "/rdt", "catalog show dac-only-in-the-copy").code != 0);
    // RDT_DATA_DIR wins over the folder beside the executable.
    const rdt::test::Run env = runAt(copy, "--version", source.string());
    CHECK_THAT(env.out, Contains("data " + source.string() + " (RDT_DATA_DIR)"));
}

TEST_CASE("an RDT_DATA_DIR without a catalog is refused by name before anything runs", "[cli][data]")
{
    rdt::test::TempDir dir;
    const rdt::test::Run r = runAt(RDT_BIN_DIR "/rdt", "check data/designs/single-rack.yaml", dir.path);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("RDT_DATA_DIR: " + dir.path + " holds no catalog/ folder"));
    CHECK_THAT(r.out, !Contains("nccl.yaml"));
    // The studio refuses it the same way (it aborted on the uncaught error).
    if (fs::exists(RDT_BIN_DIR "/rdt-studio")) {
        const rdt::test::Run studio = runAt("QT_QPA_PLATFORM=offscreen " RDT_BIN_DIR "/rdt-studio",
                                            "--screenshot " + dir.path + "/x.png data/designs/single-rack.yaml", dir.path);
        INFO(studio.out);
        CHECK(studio.code == 2);
        CHECK_THAT(studio.out, Contains("rdt-studio: error: ") && Contains(dir.path + " holds no catalog/ folder"));
    }
}
