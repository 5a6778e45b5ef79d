#pragma once
// A fresh temporary directory under /tmp, removed with everything in it at the end of the test.
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace rdt::test {

struct TempDir {
    TempDir()
    {
        char tmpl[] = "/tmp/rdt-test-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string path;
};

} // namespace rdt::test
