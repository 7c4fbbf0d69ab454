// The binding texture sidecar (`mshconv-sidecar/2`, `"kind": "texm"`; docs/sidecar.md): what a
// PNG cannot hold, and nothing it holds. Filled by conversion::encode_texture, read by
// read_texture_sidecar; conversion::rebuild_bound_texture rebuilds the Texm from the PNGs and it.
#pragma once

#include "texture_sidecar.hpp"

namespace msh::sidecar {

class JsonAt;
class ReadableJson;

// What both layouts read alike: the mip PNGs' names (plain file names), the texm-rgb reading
// (absent: the default), each a FormatError naming its place.
std::vector<std::string> read_mip_names(const JsonAt& mips);
ChannelOrder read_channel_order(const JsonAt& doc);
std::string channel_order_name(ChannelOrder order);

// The binding fields of `t` (the interpreted `payload`) into `s`: levels 1.. in the sidecar
// unless `mip_pngs`, a level whose PNG does not hold it exactly with its bytes.
void bind_texture(const texm::Texture& t, ByteView payload, bool mip_pngs, TextureSidecar& s);

// The checks of the members a person may edit, as they are now (compared with `checks`).
std::map<std::string, uint16_t> texture_checks(const TextureSidecar& s);

// The binding layout's document through `w`.
void write_binding_texture(ReadableJson& w, const TextureSidecar& s);
// Every field typed and checked (a FormatError at its JSON pointer); `edits` filled.
TextureSidecar read_binding_texture(const JsonAt& doc);

} // namespace msh::sidecar
