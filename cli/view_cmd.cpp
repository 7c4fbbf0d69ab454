// `mshconv view IN [-o PAGE.html] [--no-open]`: one asset's interactive view as a self-contained
// page (mshconv::view_page), opened in the default browser.
#include "commands.hpp"
#include "convert_options.hpp"
#include "log.hpp"
#include "preview_cmd.hpp"

#include "formats/names.hpp"

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
    const std::string input = vm["input"].as<std::string>();
    const fs::path file = mshconv::address_file(input);
    // The entry's name for ARCHIVE:ENTRY, else the file's.
    const std::string leaf = input.size() > file.string().size()
                                 ? input.substr(input.rfind(':') + 1)
                                 : file.filename().string();
    const fs::path out =
        vm.count("output") ? fs::path(vm["output"].as<std::string>()) : fs::path(leaf + ".html");
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".html" && ext != ".htm")
        throw UsageError("PAGE must end in .html: " + out.string());
    if (mshconv::disk().same_file(out, file))
        throw UsageError("PAGE is IN; inputs are never overwritten");
    const mshconv::PreviewRequest request{input, preview_options(vm), convert_options(vm)};
    const mshconv::ViewPage page = mshconv::view_page(request, mshconv::disk(), print_message);
    mshconv::disk().write_set(
        {{out, {std::span(reinterpret_cast<const uint8_t*>(page.html.data()), page.html.size())}}});
    std::printf("%s -> %s (%s view)\n", input.c_str(), out.string().c_str(),
                mshconv::to_string(page.kind));
    if (!vm.count("no-open")) open_in_browser(out);
    return 0;
}

} // namespace msh::cli
