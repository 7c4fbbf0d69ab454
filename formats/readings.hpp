// The contested readings of the formats (docs/formats/README.md, "Contested readings"): fields
// that readers checked against real installs interpret differently and that no evidence settles.
// Each has a default (its argument in docs/formats) and an alternative a user who owns the game
// selects without a rebuild (`--reading NAME=VARIANT`, `mshconv survey` says which the data
// supports). Raw values are always kept, so a round trip is byte-identical under any choice; an
// export records its readings (sidecar, asset.extras) and the import uses the same.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace msh {

// Res8 key rotation at +16..+22 (animation.md §2).
enum class KeyQuaternion : uint8_t {
    Xyzw, // "xyzw": i16 x, y, z, w (seed 003, fparkan)
    Wxyz, // "wxyz": i16 w, x, y, z, the rotation conjugated (ParkanPlayground)
};

// Land.msh face bytes +4 / +5 -> the WEAR tables (terrain.md §4).
enum class FaceMaterial : uint8_t {
    Land1First, // "land1-land2": byte 4 -> Land1.wea row, byte 5 -> Land2.wea row or 0xFF
    Land2First, // "land2-land1": byte 4 -> Land2.wea row, byte 5 -> Land1.wea row or 0xFF
};

// Res13 batch field that selects the material (msh.md §6).
enum class BatchMaterial : uint8_t {
    Row,    // "row": u16 at +2 = WEAR row by position (seed 000, fparkan)
    WearId, // "wear-id": byte at +4 = the WEAR row whose legacy id it is (ParkanPlayground)
};

// Memory order of the colour bytes of 888 pixels and palette entries (texm-materials.md §3).
enum class ChannelOrder : uint8_t {
    Bgr, // "bgr": B, G, R, X (the D3D X8R8G8B8 dword)
    Rgb, // "rgb": R, G, B, X (a DirectDraw PALETTEENTRY; fparkan, ParkanPlayground)
};

// The 15 slots of a node, slot = a * 5 + b (msh.md §3): what a and b mean, and so the names of
// the slot nodes an export writes (`<node>@...`) and an import reads.
enum class SlotNames : uint8_t {
    LodGroup, // "lod-group": a = LOD 0..2, b = group 0..4: `@lod1`, `@g4`, `@lod1g4`
    StateLod, // "state-lod": a = damage state 0..2, b = LOD 0..4: `@state1`, `@lod4`, `@state1lod4`
};

struct Readings {
    KeyQuaternion key_quaternion = KeyQuaternion::Xyzw;
    FaceMaterial face_material = FaceMaterial::Land1First;
    BatchMaterial batch_material = BatchMaterial::Row;
    ChannelOrder texm_rgb = ChannelOrder::Bgr;
    SlotNames slots = SlotNames::LodGroup;

    bool operator==(const Readings&) const = default;
};

// One contested field: its name, its variants (the default first) and what it decides.
struct ReadingInfo {
    const char* name;
    std::vector<const char*> variants;
    const char* what;
};
const std::vector<ReadingInfo>& reading_infos();
// A level's readings (level.md §4: assembly, rest-pose, parts): chosen with the same flag, recorded
// by a level export only (conversion/level.hpp), so they are not members of Readings.
const std::vector<ReadingInfo>& level_reading_infos();

// NAME=VARIANT applied to `r`; throws std::invalid_argument naming the known names or variants.
void set_reading(Readings& r, std::string_view assignment);
// Each reading's name -> its variant, every reading listed (sidecars, asset.extras, reports).
std::map<std::string, std::string> reading_map(const Readings& r);
// The inverse; names it does not list keep their default; throws std::invalid_argument on an
// unknown name or variant.
Readings readings_from_map(const std::map<std::string, std::string>& m);
// "key-quaternion=xyzw, face-material=land1-land2, ..." for messages.
std::string describe(const Readings& r);

} // namespace msh
