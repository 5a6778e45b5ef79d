#pragma once
/// \file StudioWindow.h
/// The studio's main window for a GUI test: `w` × `h`, shown, on a private recovery folder (so no
/// test meets another's autosave), without modal dialogs.

#include <QApplication>
#include <QTemporaryDir>

#include <memory>

#include "gui/MainWindow.h"

namespace rdt::test {

struct StudioWindow {
    QTemporaryDir dir;
    std::unique_ptr<gui::MainWindow> window;
    explicit StudioWindow(int w = 1400, int h = 900)
    {
        qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
        window = std::make_unique<gui::MainWindow>(RDT_SOURCE_DIR "/data/catalog", false);
        window->resize(w, h);
        window->show();
        QApplication::processEvents();
    }
};

} // namespace rdt::test
