// A whole game folder to GLB and PNG with a progress line, then back into the game's own files,
// through the library's public headers only: what a pipeline job runs. The second pass rebuilds
// every archive and loose file from the first one's output; unedited, each comes back byte for
// byte ("unchanged").
//   batch_folder GAME_DIR OUT_DIR BACK_DIR
#include <mshconv/batch.hpp>
#include <mshconv/io.hpp>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) try {
    if (argc != 4) return std::fprintf(stderr, "usage: batch_folder GAME OUT BACK\n"), 2;
    size_t done = 0;
    const mshconv::OnItem progress = [&](const mshconv::BatchItem& item) {
        ++done; // one call at a time, from the worker threads
        if (item.status == mshconv::ItemStatus::Failed)
            std::fprintf(stderr, "\nfailed: %s: %s\n", item.input.c_str(), item.message.c_str());
        std::fprintf(stderr, "\r%zu done", done);
    };

    mshconv::BatchRequest forward{{argv[1]}, argv[2]};
    forward.options.to = {mshconv::BatchFormat::Glb, mshconv::BatchFormat::Png};
    const mshconv::BatchResult out = mshconv::batch(forward, mshconv::disk(), progress);
    std::fprintf(stderr, "\n");

    mshconv::BatchRequest reverse{{argv[2]}, argv[3]};
    reverse.options.to = {mshconv::BatchFormat::Nres};
    const mshconv::BatchResult back = mshconv::batch(reverse, mshconv::disk(), progress);
    std::fprintf(stderr, "\n");

    std::printf("%s -> %s: %zu converted, %zu failed, %zu copied as they are\n", argv[1], argv[2],
                out.converted, out.failed, out.skipped);
    std::printf("%s -> %s: %zu rebuilt, %zu failed, %zu unchanged\n", argv[2], argv[3],
                back.converted, back.failed, back.unchanged);
    return out.failed || back.failed ? 1 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
