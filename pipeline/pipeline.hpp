// One conversion in memory, per direction and kind: bytes and plain settings in, encoded files
// and typed results out. The library's public face is include/mshconv/ (jobs/ runs these through
// an Io). Nothing is read from or written to disk unless a function says so (read_scene_file,
// write_outputs, and game_files.hpp's lookups of the game's libraries and level files).
//
//   model   MSH -> glTF/GLB/OBJ  export_model        glTF/GLB/OBJ -> MSH  import_model
//   terrain Land.msh(+map) ->    export_terrain      scene -> Land.msh+map import_terrain(_obj)
//   texture Texm -> PNG          export_texture      PNG -> Texm          import_texture
//   a new model's look           add_to_game_libraries (WEAR, MAT0 and Texm entries)
//   previews (PNG + facts)       preview_model, preview_terrain, preview_texture, preview_scene
//
// examples/roundtrip.cpp converts an archive entry to GLB and back with it.
#pragma once

#include "game_files.hpp"
#include "game_library_add.hpp"
#include "model_export.hpp"
#include "model_import.hpp"
#include "outputs.hpp"
#include "preview.hpp"
#include "terrain.hpp"
#include "texture.hpp"
