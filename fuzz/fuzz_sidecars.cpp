// Every sidecar reader: model, texture and terrain; what a reader accepted writes back to text
// that reads again.
#include "harness.hpp"

#include "conversion/terrain.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/texture_sidecar.hpp"

#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    std::optional<sidecar::ModelSidecar> whole;
    fuzz::expect_format_errors([&] {
        whole = sidecar::read_model_sidecar(bytes, "fuzz");
        const std::string text = sidecar::model_sidecar_text(*whole);
        sidecar::read_model_sidecar(
            ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "again");
    });
    // The import's reader reads a part of what the whole reader does: whatever that accepts, it
    // accepts, with the same image and record.
    bool imported = false;
    fuzz::expect_format_errors([&] {
        const sidecar::ModelSidecar s = sidecar::read_model_sidecar_for_import(bytes, "fuzz");
        imported = true;
        if (whole)
            fuzz::require(s.original_image == whole->original_image &&
                              s.record.pair == whole->record.pair &&
                              s.record.fps == whole->record.fps &&
                              s.record.written.xxh3_64 == whole->record.written.xxh3_64 &&
                              s.record.wear_rows == whole->record.wear_rows,
                          "the import's reader differs from the whole reader");
    });
    fuzz::require(imported || !whole, "the import's reader refused what the whole reader read");
    fuzz::expect_format_errors([&] {
        const sidecar::TextureSidecar s = sidecar::read_texture_sidecar(bytes, "fuzz");
        sidecar::texture_sidecar_text(s);
    });
    fuzz::expect_format_errors([&] {
        const std::optional<sidecar::TerrainSidecar> s =
            sidecar::read_terrain_sidecar(bytes, "fuzz");
        if (!s) return;
        const std::string text = sidecar::terrain_sidecar_text(*s);
        fuzz::require(
            sidecar::read_terrain_sidecar(
                ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "again")
                .has_value(),
            "a terrain sidecar written back does not read again");
    });
    return 0;
}
