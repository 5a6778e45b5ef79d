#include "editor/Recovery.h"

#include <fstream>
#include <sstream>

#include "core/Catalog.h"
#include "editor/Document.h"

namespace rdt::editor {

namespace fs = std::filesystem;

namespace {
constexpr const char* kMarker = "# rdt-studio recovery of: ";

std::string absolute(const std::string& path)
{
    if (path.empty())
        return {};
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

RecoveryEntry entryFrom(const fs::path& file)
{
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    RecoveryEntry e{file, {}};
    if (first.rfind(kMarker, 0) == 0)
        e.documentPath = first.substr(std::string(kMarker).size());
    return e;
}
} // namespace

Recovery::Recovery(fs::path folder) : m_folder(std::move(folder)) {}

fs::path Recovery::fileFor(const std::string& documentPath) const
{
    const std::string abs = absolute(documentPath);
    if (abs.empty())
        return m_folder / "untitled.yaml";
    char hash[20];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(core::fnv1a(abs)));
    return m_folder / (fs::path(abs).stem().string() + "-" + hash + ".yaml");
}

void Recovery::write(const std::string& documentPath, const std::string& text) const
{
    fs::create_directories(m_folder);
    writeFileAtomically(fileFor(documentPath).string(), kMarker + absolute(documentPath) + "\n" + text);
}

std::optional<RecoveryEntry> Recovery::find(const std::string& documentPath) const
{
    const fs::path f = fileFor(documentPath);
    std::error_code ec;
    if (!fs::exists(f, ec))
        return std::nullopt;
    if (!documentPath.empty() && fs::exists(documentPath, ec) &&
        fs::last_write_time(f, ec) <= fs::last_write_time(documentPath, ec))
        return std::nullopt; // the document was saved after the recovery copy
    return entryFrom(f);
}

std::vector<RecoveryEntry> Recovery::list() const
{
    std::vector<RecoveryEntry> out;
    std::error_code ec;
    if (!fs::is_directory(m_folder, ec))
        return out;
    for (const auto& e : fs::directory_iterator(m_folder))
        if (e.path().extension() == ".yaml")
            out.push_back(entryFrom(e.path()));
    return out;
}

std::string Recovery::read(const RecoveryEntry& entry)
{
    std::ifstream in(entry.file);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.rfind(kMarker, 0) == 0)
        text.erase(0, text.find('\n') + 1);
    return text;
}

void Recovery::discard(const std::string& documentPath) const
{
    std::error_code ec;
    fs::remove(fileFor(documentPath), ec);
}

} // namespace rdt::editor
