// A thumbnail of an archive's model entry, drawn in memory (CPU, no display): what an asset
// database stores beside the asset. The PNG and its facts never touch the disk unless asked.
//   thumbnail static.rlb House_01.msh [house.png]
#include <mshconv/io.hpp>
#include <mshconv/preview.hpp>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) try {
    if (argc != 3 && argc != 4)
        return std::fprintf(stderr, "usage: thumbnail ARCHIVE ENTRY [OUT.png]\n"), 2;
    mshconv::PreviewRequest request{std::string(argv[1]) + ":" + argv[2]};
    request.options.width = request.options.height = 128; // iso view, transparent background
    mshconv::FileIo disk;
    const mshconv::Preview p = mshconv::preview(request, disk);
    std::printf("%s: %zu-byte PNG, 128 x 128, a %s\n", request.input.c_str(), p.png.size(),
                mshconv::to_string(p.kind));
    std::printf("%zu triangles, %zu materials\n", p.facts.triangles, p.facts.materials.size());
    // The view's camera puts any point of the model on the picture: here its origin.
    if (const auto at = mshconv::project(p.views.at(0), {0, 0, 0}))
        std::printf("its origin at pixel (%.1f, %.1f)\n", (*at)[0], (*at)[1]);
    if (argc == 4) disk.write_set({{argv[3], {p.png}}});
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
