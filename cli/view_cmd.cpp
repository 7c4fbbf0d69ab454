// `mshconv view IN [-o PAGE.html] [--no-open]`: one asset's interactive view as a self-contained
// page (conversion/view_page.hpp), opened in the default browser.
#include "commands.hpp"
#include "conversion/view_page.hpp"
#include "log.hpp"
#include "preview_cmd.hpp"

#include "formats/file_io.hpp"

#ifdef _WIN32
#include <windows.h>

#include <shellapi.h>
#else
#include <fcntl.h>
#include <spawn.h>

extern char** environ;
#endif

#include <cstdio>
#include <cstring>
#include <vector>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kViewUsage = R"(view IN [-o PAGE.html] [--no-open] [options]

Writes one asset's interactive view (three.js, WebGL) as a single HTML page that works from disk,
and opens it in the default browser (xdg-open) unless --no-open. IN: an MSH model (file or
archive entry; every LOD and group, its animation, its textures), a Land.msh (both layers and
the areal overlay by class), a Texm texture (each mip level at 1:1, the atlas pages), or a
.gltf, .glb, .obj or a model in a format Assimp reads (shown as it is). The view
opens at the preview's camera (--view, --size as for `preview`) with --lod and --group shown.
Default PAGE: IN's name + .html in the current folder.
)";

#ifdef _WIN32
// The shell's handler for .html; the browser outlives this command, which does not wait for it.
void open_in_browser(const fs::path& page) {
    const fs::path path = fs::absolute(page);
    const auto result = reinterpret_cast<intptr_t>(
        ShellExecuteW(nullptr, L"open", path.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
    if (result <= 32)
        log_warn("cannot open it in a browser (error " + std::to_string(result) + "): open " +
                 path.string() + " by hand");
    else
        log_info("opening " + path.string() + " in the default browser");
}
#else
// xdg-open in the background: the browser outlives this command, which does not wait for it.
void open_in_browser(const fs::path& page) {
    const std::string path = fs::absolute(page).string();
    char arg0[] = "xdg-open";
    std::vector<char> arg1(path.begin(), path.end());
    arg1.push_back('\0');
    char* argv[] = {arg0, arg1.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int error = posix_spawnp(&pid, "xdg-open", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
        log_warn(std::string("cannot start xdg-open (") + std::strerror(error) + "): open " + path +
                 " in a browser");
    else
        log_info("opening " + path + " in the default browser");
}
#endif

} // namespace

int run_view(const Args& args) {
    po::options_description desc("view options");
    desc.add_options()("output,o", po::value<std::string>()->value_name("PAGE.html"),
                       "the page (default: IN's name + .html)")(
        "no-open", "write the page only; do not start a browser");
    add_preview_options(desc, PreviewUse::View);
    po::variables_map vm;
    if (!parse_options(args, kViewUsage, desc, {{"input", "IN"}}, vm)) return 0;
    const Address in = parse_address(vm["input"].as<std::string>());
    const std::string leaf = in.entries.empty() ? in.file.filename().string() : in.entries.back();
    const fs::path out =
        vm.count("output") ? fs::path(vm["output"].as<std::string>()) : fs::path(leaf + ".html");
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".html" && ext != ".htm")
        throw UsageError("PAGE must end in .html: " + out.string());
    if (same_path(out, in.file)) throw UsageError("PAGE is IN; inputs are never overwritten");
    const conversion::PreviewSettings settings = preview_settings(vm);
    conversion::require_viewer(); // before the input is read: a build without Node has no viewer

    nlohmann::json view;
    const mshconv::ConvertOptions options = convert_options(vm);
    const conversion::Preview preview =
        conversion::preview_of(disk_job(options), vm["input"].as<std::string>(), settings, &view);
    for (const std::string& w : preview.warnings) log_warn(w);
    // The page names the input without its folders: the same page from any folder.
    view["name"] = in.portable();
    const std::string html = conversion::view_page_html(in.portable(), view);
    conversion::write_outputs(out.parent_path(),
                              {{out.filename().string(), Bytes(html.begin(), html.end())}});
    std::printf("%s -> %s (%s view)\n", in.display().c_str(), out.string().c_str(),
                view.value("kind", "").c_str());
    if (!vm.count("no-open")) open_in_browser(out);
    return 0;
}

} // namespace msh::cli
