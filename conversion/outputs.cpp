#include "outputs.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"

#include <algorithm>
#include <cctype>

namespace msh::conversion {

namespace {

Bytes to_bytes(const std::string& text) {
    return Bytes(text.begin(), text.end());
}

} // namespace

std::optional<SceneFormat> scene_format_of(const std::string& file_name) {
    const std::string ext = lower_ascii(std::filesystem::path(file_name).extension().string());
    if (ext == ".gltf") return SceneFormat::Gltf;
    if (ext == ".glb") return SceneFormat::Glb;
    if (ext == ".obj") return SceneFormat::Obj;
    return std::nullopt;
}

const char* extension_of(SceneFormat format) {
    switch (format) {
    case SceneFormat::Gltf:
        return ".gltf";
    case SceneFormat::Glb:
        return ".glb";
    case SceneFormat::Obj:
        return ".obj";
    }
    return "";
}

std::string file_stem(const std::string& file_name) {
    return std::filesystem::path(file_name).stem().string();
}

std::string default_sidecar_name(const std::string& file_name) {
    return file_stem(file_name) + ".sidecar.json";
}

OutputFiles scene_files(const scene::Scene& scene, SceneFormat format,
                        const std::string& output_name, gltf::Assembly assembly) {
    OutputFiles files;
    if (format == SceneFormat::Obj) {
        const std::string stem = file_stem(output_name);
        const std::string mtl_name = stem + ".mtl";
        obj::Files obj = obj::write(scene, mtl_name, scene::image_file_stem(stem) + "_");
        for (scene::ImageFile& f : obj.images) files.push_back({f.name, std::move(f.png)});
        files.push_back({mtl_name, to_bytes(obj.mtl)});
        files.push_back({output_name, to_bytes(obj.obj)});
        return files;
    }
    gltf::Encoded e = gltf::encode(scene, format == SceneFormat::Glb, output_name, assembly);
    for (scene::ImageFile& f : e.images) files.push_back({f.name, std::move(f.png)});
    if (!e.bin_name.empty()) files.push_back({e.bin_name, std::move(e.bin)});
    OutputFile& document = files.emplace_back();
    document.name = output_name;
    document.bytes = std::move(e.document);
    document.tail = std::move(e.tail);
    if (!e.converted.empty())
        document.keep.push_back(std::make_shared<const std::vector<Bytes>>(std::move(e.converted)));
    return files;
}

void keep_scene_for(OutputFiles& files, scene::Scene&& scene) {
    std::shared_ptr<const void> owner;
    for (OutputFile& f : files) {
        if (f.tail.empty()) continue;
        if (!owner) owner = std::make_shared<const scene::Scene>(std::move(scene));
        f.keep.push_back(owner);
    }
}

std::vector<ByteView> OutputFile::pieces() const {
    std::vector<ByteView> all;
    all.reserve(1 + tail.size());
    all.push_back(bytes);
    all.insert(all.end(), tail.begin(), tail.end());
    return all;
}

sidecar::WrittenFile written_file(const OutputFiles& files, SceneFormat format,
                                  const std::string& output_name) {
    sidecar::WrittenFile w;
    if (format == SceneFormat::Obj) return w;
    for (const OutputFile& f : files) {
        if (f.name == output_name)
            w.xxh3_64 = sidecar::hex64(sidecar::payload_hash(f.pieces()));
        else if (format == SceneFormat::Gltf && lower_ascii(f.name).ends_with(".bin"))
            w.buffer = f.name, w.buffer_xxh3_64 = sidecar::hex64(sidecar::payload_hash(f.bytes));
    }
    return w;
}

bool is_written_file(const std::filesystem::path& file, const sidecar::WrittenFile& written,
                     mshconv::Io& io) {
    if (!written.recorded()) return false;
    const auto format = scene_format_of(file.filename().string());
    if (format != (written.buffer.empty() ? SceneFormat::Glb : SceneFormat::Gltf)) return false;
    const auto hash_of = [&io](const std::filesystem::path& path) {
        if (!on_disk(&io)) return sidecar::hex64(sidecar::payload_hash(io.read(path).bytes));
        const MappedFile bytes(path, Reading::Whole); // every page entered at once
        return sidecar::hex64(sidecar::payload_hash(bytes.bytes()));
    };
    try {
        if (hash_of(file) != written.xxh3_64) return false;
        // The .gltf is the one written, so it names this buffer; read where the import would.
        return written.buffer.empty() ||
               hash_of(confined_path(&io, file.parent_path(), written.buffer)) ==
                   written.buffer_xxh3_64;
    } catch (const std::exception&) {
        return false; // unreadable here: the import reads the scene and names the problem
    }
}

void write_outputs(const std::filesystem::path& folder, const OutputFiles& files,
                   const OutputFiles& also, mshconv::Io& io) {
    std::vector<mshconv::FileToWrite> set;
    for (const OutputFile& f : files) set.push_back({folder / f.name, f.pieces()});
    for (const OutputFile& f : also) set.push_back({f.name, f.pieces()});
    io.write_set(set);
}

void write_outputs(const std::filesystem::path& folder, const OutputFiles& files,
                   const std::filesystem::path& sidecar, std::string_view sidecar_text,
                   mshconv::Io& io) {
    std::vector<mshconv::FileToWrite> set;
    for (const OutputFile& f : files) set.push_back({folder / f.name, f.pieces()});
    const ByteView text(reinterpret_cast<const uint8_t*>(sidecar_text.data()), sidecar_text.size());
    set.push_back({sidecar, {text}});
    io.write_set(set);
}

} // namespace msh::conversion
