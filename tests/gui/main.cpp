// Catch2 runner for the [gui] tests: a real QApplication on the xcb platform (run under
// `xvfb-run -a`), with the OpenGL format VTK needs.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace {

// Mesa's OpenGL driver (swrast_dri.so under Xvfb) is dlclose()d when the process exits; its
// allocations then have no module name, so LeakSanitizer cannot match them against the named
// third-party suppression in tests/lsan.supp. Keeping every loaded *_dri.so mapped until exit
// (RTLD_NOLOAD | RTLD_NODELETE changes only the unload, nothing else) keeps them attributable.
void keepGlDriversLoaded()
{
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void*) {
            if (info->dlpi_name && std::strstr(info->dlpi_name, "_dri.so"))
                dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "xcb");
    QSurfaceFormat fmt;
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setStencilBufferSize(8);
    QSurfaceFormat::setDefaultFormat(fmt);
    // Keep the tests' recent-file list out of the user's settings.
    QTemporaryDir config;
    qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
    int qtArgc = 1;
    QApplication app(qtArgc, argv);
    const int failures = Catch::Session().run(argc, argv);
    keepGlDriversLoaded();
    return failures;
}
