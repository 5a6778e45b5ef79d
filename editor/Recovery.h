#pragma once
/// \file Recovery.h
/// Crash recovery for the editor: unsaved work is written to a recovery folder every
/// minute; a recovery file newer than its document is offered back on the next start.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rdt::editor {

/// One recovery file and the document it belongs to.
struct RecoveryEntry {
    std::filesystem::path file; ///< the recovery file
    std::string documentPath;   ///< original document, or empty for an unsaved new design
};

class Recovery {
public:
    /// `folder` is created on first write (e.g. ~/.local/share/rdt-studio/recovery).
    explicit Recovery(std::filesystem::path folder);

    /// Where the recovery copy of `documentPath` lives (stable per absolute path; `untitled` when empty).
    std::filesystem::path fileFor(const std::string& documentPath) const;
    /// Write the recovery copy (atomically). The first line records the document path.
    void write(const std::string& documentPath, const std::string& text) const;
    /// Recovery copy of `documentPath` that is newer than the document itself, if any.
    std::optional<RecoveryEntry> find(const std::string& documentPath) const;
    /// Every recovery file in the folder (after a crash, offered at start-up).
    std::vector<RecoveryEntry> list() const;
    /// The text to reopen (the recorded-path line removed).
    static std::string read(const RecoveryEntry& entry);
    /// Delete the recovery copy (after a save or a clean close).
    void discard(const std::string& documentPath) const;

private:
    std::filesystem::path m_folder;
};

} // namespace rdt::editor
