#include "core/io/usercatalog.h"

#include "core/base/loadresult.h"
#include "core/io/builtin.h"
#include "core/io/catalogio.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace core::io {

namespace {

std::filesystem::path environmentPath(const char *name)
{
    const char *value = std::getenv(name);
    return value && *value ? std::filesystem::path(value) : std::filesystem::path();
}

std::filesystem::path platformDataHome()
{
#if defined(_WIN32)
    return environmentPath("APPDATA");
#elif defined(__APPLE__)
    const auto home = environmentPath("HOME");
    return home.empty() ? home : home / "Library" / "Application Support";
#else
    if (auto xdg = environmentPath("XDG_DATA_HOME"); !xdg.empty())
        return xdg;
    const auto home = environmentPath("HOME");
    return home.empty() ? home : home / ".local" / "share";
#endif
}

} // namespace

std::filesystem::path userDataDirectory()
{
    if (auto overridden = environmentPath("VRAMPLANNER_DATA_DIR"); !overridden.empty())
        return overridden;
    const auto home = platformDataHome();
    return home.empty() ? home : home / "vramplanner";
}

std::filesystem::path userCatalogPath()
{
    const auto directory = userDataDirectory();
    return directory.empty() ? directory : directory / "gpus.json";
}

Catalog mergeCatalogs(const Catalog &base, const Catalog &overrides)
{
    Catalog merged = base;
    for (const GpuSpec &gpu : overrides.gpus) {
        const auto same = std::find_if(merged.gpus.begin(), merged.gpus.end(),
                                       [&gpu](const GpuSpec &candidate) { return candidate.id == gpu.id; });
        if (same != merged.gpus.end())
            *same = gpu;
        else
            merged.gpus.push_back(gpu);
    }
    return merged;
}

ActiveCatalog loadActiveCatalog()
{
    ActiveCatalog active{builtinCatalog(), {}, 0};
    const auto path = userCatalogPath();
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec))
        return active;
    const std::string where = path.string();
    const auto size = std::filesystem::file_size(path, ec);
    if (ec || size > kMaxInputBytes) {
        active.problems.push_back(where + (ec ? ": " + ec.message() : ": larger than 16 MiB"));
        return active;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        active.problems.push_back(where + ": cannot be read");
        return active;
    }
    const LoadResult<Catalog> user = loadCatalog(text.str());
    for (const std::string &error : user.errors)
        active.problems.push_back(where + ": " + error);
    if (!user.ok())
        return active;
    active.catalog = mergeCatalogs(active.catalog, *user.value);
    active.userEntries = user.value->gpus.size();
    return active;
}

} // namespace core::io
