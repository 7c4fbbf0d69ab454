#include "assimp_read.hpp"

#include "file_io.hpp"
#include "png.hpp"
#include "scene/bake_scale.hpp"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <map>
#include <set>

namespace msh::assimp_read {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return s;
}

template <typename Real> std::array<double, 16> column_major(const aiMatrix4x4t<Real>& m) {
    return {m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2,
            m.a3, m.b3, m.c3, m.d3, m.a4, m.b4, m.c4, m.d4};
}

struct Builder {
    const aiScene& in;
    const std::string where;
    DiagnosticSink& diagnostics;
    scene::Scene out;
    std::vector<scene::Linear3> residual;
    std::map<std::string, int> node_by_name;
    size_t skipped_primitives = 0;

    void add_node(const aiNode& n, int parent) {
        const int index = int(out.nodes.size());
        out.nodes.emplace_back();
        residual.push_back(scene::kIdentity3);
        {
            scene::Node& node = out.nodes.back();
            node.name = n.mName.C_Str();
            node.parent = parent;
            const scene::Decomposed d = scene::decompose_matrix(column_major(n.mTransformation));
            node.translation = d.translation;
            node.rotation = d.rotation;
            residual.back() = d.residual;
        }
        node_by_name.emplace(n.mName.C_Str(), index); // the first of equal names wins
        source.push_back(&n);
        if (n.mNumMeshes > 0) {
            scene::Mesh mesh;
            mesh.name = n.mName.C_Str();
            int skin = scene::kNoIndex;
            for (unsigned k = 0; k < n.mNumMeshes; ++k) {
                if (n.mMeshes[k] >= in.mNumMeshes) continue;
                const aiMesh& m = *in.mMeshes[n.mMeshes[k]];
                if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
                    ++skipped_primitives;
                    continue;
                }
                mesh.primitives.push_back(primitive(m));
                if (m.HasBones()) skin = index; // resolved once every node exists
            }
            out.nodes[size_t(index)].mesh = int(out.meshes.size());
            out.meshes.push_back(std::move(mesh));
            if (skin != scene::kNoIndex) skinned_nodes.push_back(index);
        }
        for (unsigned c = 0; c < n.mNumChildren; ++c)
            if (n.mChildren[c]) add_node(*n.mChildren[c], index);
    }

    std::vector<int> skinned_nodes;
    std::vector<const aiNode*> source; // the aiNode of every scene node

    scene::Primitive primitive(const aiMesh& m) {
        scene::Primitive p;
        p.material =
            int(m.mMaterialIndex) < int(in.mNumMaterials) ? int(m.mMaterialIndex) : scene::kNoIndex;
        scene::Attribute pos{3, {}};
        pos.data.reserve(size_t(m.mNumVertices) * 3);
        for (unsigned v = 0; v < m.mNumVertices; ++v) {
            const aiVector3D& x = m.mVertices[v];
            if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
                throw FormatError(where, Location::whole(),
                                  "mesh '" + std::string(m.mName.C_Str()) + "' vertex " +
                                      std::to_string(v) + " is NaN or infinite");
            pos.data.insert(pos.data.end(), {x.x, x.y, x.z});
        }
        p.attributes["POSITION"] = std::move(pos);
        if (m.HasNormals()) {
            scene::Attribute n{3, {}};
            for (unsigned v = 0; v < m.mNumVertices; ++v) {
                const aiVector3D& x = m.mNormals[v];
                const bool ok = std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z);
                n.data.insert(n.data.end(), {ok ? x.x : 0.f, ok ? x.y : 0.f, ok ? x.z : 1.f});
            }
            p.attributes["NORMAL"] = std::move(n);
        }
        for (unsigned set = 0; set < 2 && m.HasTextureCoords(set); ++set) {
            scene::Attribute uv{2, {}};
            for (unsigned v = 0; v < m.mNumVertices; ++v) {
                const aiVector3D& x = m.mTextureCoords[set][v];
                uv.data.insert(uv.data.end(),
                               {std::isfinite(x.x) ? x.x : 0.f, std::isfinite(x.y) ? x.y : 0.f});
            }
            p.attributes["TEXCOORD_" + std::to_string(set)] = std::move(uv);
        }
        for (unsigned f = 0; f < m.mNumFaces; ++f) {
            const aiFace& face = m.mFaces[f];
            if (face.mNumIndices != 3) continue; // points and lines of a mixed mesh
            for (unsigned k = 0; k < 3; ++k) {
                if (face.mIndices[k] >= m.mNumVertices)
                    throw FormatError(where, Location::whole(),
                                      "mesh '" + std::string(m.mName.C_Str()) + "' face " +
                                          std::to_string(f) + " names vertex " +
                                          std::to_string(face.mIndices[k]) + " of " +
                                          std::to_string(m.mNumVertices));
                p.indices.push_back(face.mIndices[k]);
            }
        }
        return p;
    }

    // A bone whose name no node holds (DirectX files whose exporter wrote the weights but not
    // the frame): a new node of the bone's name at its bind pose, the inverse of its offset
    // matrix, under the mesh's parent and without keys. Its vertices stay where they are bound
    // and move with the mesh, not with the skeleton: Blender's importers likewise leave vertices
    // whose bone is missing undeformed.
    int node_for_bone(const aiBone& bone, int holder) {
        const std::string name = bone.mName.C_Str();
        aiMatrix4x4t<double> bind = aiMatrix4x4t<double>(bone.mOffsetMatrix);
        if (!std::isfinite(bind.Determinant()) || std::abs(bind.Determinant()) < 1e-12)
            throw FormatError(where, Location::whole(),
                              "bone '" + name +
                                  "' names no node, and its offset matrix cannot be inverted");
        bind.Inverse();
        const int parent = out.nodes[size_t(holder)].parent;
        aiMatrix4x4t<double> parent_world;
        for (const aiNode* n = parent == scene::kNoIndex ? nullptr : source[size_t(parent)]; n;
             n = n->mParent)
            parent_world = aiMatrix4x4t<double>(n->mTransformation) * parent_world;
        const scene::Decomposed d =
            scene::decompose_matrix(column_major(parent_world.Inverse() * bind));
        const int index = int(out.nodes.size());
        scene::Node node;
        node.name = name;
        node.parent = parent;
        node.translation = d.translation;
        node.rotation = d.rotation;
        out.nodes.push_back(std::move(node));
        residual.push_back(d.residual);
        source.push_back(nullptr);
        diagnostics.warn(where, Location::whole(),
                         "bone '" + name + "' names no node: node '" + name +
                             "' is made at the bone's bind pose " +
                             (parent == scene::kNoIndex
                                  ? std::string("as a root")
                                  : "under '" + out.nodes[size_t(parent)].name + "'") +
                             ", without keys (its vertices do not follow the skeleton)");
        return index;
    }

    // Bones of the node's meshes -> one skin (joints by bone name), the four strongest weights.
    void add_skin(int node_index) {
        const aiNode* n = source[size_t(node_index)];
        scene::Skin skin;
        skin.name = out.nodes[size_t(node_index)].name;
        std::map<int, size_t> joint_of_node;
        scene::Mesh& mesh = out.meshes[size_t(out.nodes[size_t(node_index)].mesh)];
        size_t prim = 0;
        for (unsigned k = 0; k < n->mNumMeshes; ++k) {
            const aiMesh& m = *in.mMeshes[n->mMeshes[k]];
            if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
            scene::Primitive& p = mesh.primitives[prim++];
            std::vector<std::vector<std::pair<float, uint32_t>>> influences(m.mNumVertices);
            for (unsigned b = 0; b < m.mNumBones; ++b) {
                const aiBone& bone = *m.mBones[b];
                auto found = node_by_name.find(bone.mName.C_Str());
                if (found == node_by_name.end())
                    found =
                        node_by_name.emplace(bone.mName.C_Str(), node_for_bone(bone, node_index))
                            .first;
                auto [it, fresh] = joint_of_node.emplace(found->second, skin.joints.size());
                if (fresh) {
                    skin.joints.push_back(found->second);
                    const auto ibm = column_major(bone.mOffsetMatrix);
                    skin.inverse_bind.insert(skin.inverse_bind.end(), ibm.begin(), ibm.end());
                }
                for (unsigned w = 0; w < bone.mNumWeights; ++w)
                    if (bone.mWeights[w].mVertexId < m.mNumVertices)
                        influences[bone.mWeights[w].mVertexId].push_back(
                            {bone.mWeights[w].mWeight, uint32_t(it->second)});
            }
            scene::Attribute joints{4, {}}, weights{4, {}};
            joints.joints = true;
            for (auto& v : influences) {
                std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
                for (size_t slot = 0; slot < 4; ++slot) {
                    joints.data.push_back(slot < v.size() ? float(v[slot].second) : 0.f);
                    // A vertex no bone weighs follows joint 0 fully.
                    const float none = slot == 0 && v.empty() ? 1.f : 0.f;
                    weights.data.push_back(slot < v.size() ? v[slot].first : none);
                }
            }
            p.attributes["JOINTS_0"] = std::move(joints);
            p.attributes["WEIGHTS_0"] = std::move(weights);
        }
        out.nodes[size_t(node_index)].skin = int(out.skins.size());
        out.skins.push_back(std::move(skin));
    }

    void add_animation(const aiAnimation& a) {
        scene::Animation an;
        an.name = a.mName.C_Str();
        // Assimp: 0 ticks per second means "not given"; its own default is 25.
        const double tps = a.mTicksPerSecond > 0 ? a.mTicksPerSecond : 25.0;
        for (unsigned c = 0; c < a.mNumChannels; ++c) {
            const aiNodeAnim& ch = *a.mChannels[c];
            const auto node = node_by_name.find(ch.mNodeName.C_Str());
            if (node == node_by_name.end()) continue;
            if (ch.mNumPositionKeys > 0) {
                scene::Channel t;
                t.node = node->second;
                for (unsigned k = 0; k < ch.mNumPositionKeys; ++k) {
                    t.times.push_back(float(ch.mPositionKeys[k].mTime / tps));
                    const aiVector3D& v = ch.mPositionKeys[k].mValue;
                    t.values.insert(t.values.end(), {v.x, v.y, v.z});
                }
                an.channels.push_back(std::move(t));
            }
            if (ch.mNumRotationKeys > 0) {
                scene::Channel r;
                r.node = node->second;
                r.path = scene::Path::Rotation;
                for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) {
                    r.times.push_back(float(ch.mRotationKeys[k].mTime / tps));
                    const aiQuaternion& q = ch.mRotationKeys[k].mValue;
                    r.values.insert(r.values.end(), {q.x, q.y, q.z, q.w});
                }
                an.channels.push_back(std::move(r));
            }
            std::vector<float> scales;
            for (unsigned k = 0; k < ch.mNumScalingKeys; ++k) {
                const aiVector3D& v = ch.mScalingKeys[k].mValue;
                scales.insert(scales.end(), {v.x, v.y, v.z});
            }
            if (!scene::keeps_rest_scale(scales, residual[size_t(node->second)]))
                diagnostics.warn(where, Location::whole(),
                                 scene::animated_scale_warning(an.name, ch.mNodeName.C_Str()));
        }
        out.animations.push_back(std::move(an));
    }
};

// Assimp's C API, loaded when a file needs it: linking libassimp would cost every mshconv
// command about 19 ms of start-up (relocations and static initialisers of a large library).
struct Api {
    decltype(&aiImportFileExWithProperties) import_file = nullptr;
    decltype(&aiReleaseImport) release = nullptr;
    decltype(&aiGetErrorString) error = nullptr;
    decltype(&aiCreatePropertyStore) create_store = nullptr;
    decltype(&aiReleasePropertyStore) release_store = nullptr;
    decltype(&aiSetImportPropertyInteger) set_integer = nullptr;
    decltype(&aiIsExtensionSupported) supported = nullptr;
    decltype(&aiGetMaterialString) material_string = nullptr;
    decltype(&aiGetMaterialTexture) material_texture = nullptr;
    decltype(&aiGetMaterialColor) material_color = nullptr;
};

#ifdef _WIN32
// libassimp.dll from the executable's folder (not from the current one, or PATH).
HMODULE load_assimp() {
    wchar_t exe[MAX_PATH];
    const DWORD n = GetModuleFileNameW(nullptr, exe, MAX_PATH);
    if (n == 0 || n == MAX_PATH) return nullptr;
    const std::filesystem::path folder = std::filesystem::path(exe).parent_path();
    for (const wchar_t* name : {L"libassimp-5.dll", L"libassimp.dll"})
        if (HMODULE lib =
                LoadLibraryExW((folder / name).c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH))
            return lib;
    return nullptr;
}

void* symbol(HMODULE lib, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(lib, name));
}
#else
void* load_assimp() {
    void* lib = dlopen("libassimp.so.5", RTLD_NOW | RTLD_LOCAL);
    return lib ? lib : dlopen("libassimp.so", RTLD_NOW | RTLD_LOCAL);
}

void* symbol(void* lib, const char* name) {
    return dlsym(lib, name);
}
#endif

// nullptr when the library is not installed.
const Api* api() {
    static const Api* loaded = []() -> const Api* {
        const auto lib = load_assimp();
        if (!lib) return nullptr;
        static Api a;
        auto bind = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(symbol(lib, name));
            return fn != nullptr;
        };
        const bool ok = bind(a.import_file, "aiImportFileExWithProperties") &&
                        bind(a.release, "aiReleaseImport") && bind(a.error, "aiGetErrorString") &&
                        bind(a.create_store, "aiCreatePropertyStore") &&
                        bind(a.release_store, "aiReleasePropertyStore") &&
                        bind(a.set_integer, "aiSetImportPropertyInteger") &&
                        bind(a.supported, "aiIsExtensionSupported") &&
                        bind(a.material_string, "aiGetMaterialString") &&
                        bind(a.material_texture, "aiGetMaterialTexture") &&
                        bind(a.material_color, "aiGetMaterialColor");
        return ok ? &a : nullptr;
    }();
    return loaded;
}

// The diffuse (or PBR base colour) texture of a material: an embedded one (`*N`, or matched by
// file name), else the file it names — relative to the model, or for an absolute path (FBX files
// keep the author's) the file of that name beside the model. Anything outside the model's folder
// is not read. A missing file is a warning.
std::optional<scene::Image> material_image(const Api& a, const aiScene& in, const aiMaterial& mat,
                                           const std::filesystem::path& folder,
                                           const std::string& where, DiagnosticSink& diagnostics) {
    aiString path;
    if (a.material_texture(&mat, aiTextureType_BASE_COLOR, 0, &path, nullptr, nullptr, nullptr,
                           nullptr, nullptr, nullptr) != aiReturn_SUCCESS &&
        a.material_texture(&mat, aiTextureType_DIFFUSE, 0, &path, nullptr, nullptr, nullptr,
                           nullptr, nullptr, nullptr) != aiReturn_SUCCESS)
        return std::nullopt;
    std::string name = path.C_Str();
    for (char& c : name)
        if (c == '\\') c = '/';
    const std::string stem = std::filesystem::path(name).stem().string();
    const aiTexture* embedded = nullptr;
    if (name.size() > 1 && name[0] == '*') {
        const unsigned k = unsigned(std::strtoul(name.c_str() + 1, nullptr, 10));
        if (k < in.mNumTextures) embedded = in.mTextures[k];
    }
    for (unsigned k = 0; !embedded && k < in.mNumTextures; ++k) {
        std::string f = in.mTextures[k]->mFilename.C_Str();
        for (char& c : f)
            if (c == '\\') c = '/';
        if (!f.empty() &&
            std::filesystem::path(f).filename() == std::filesystem::path(name).filename())
            embedded = in.mTextures[k];
    }
    if (embedded) {
        scene::Image img{stem.empty() || name[0] == '*' ? "texture" + name.substr(1) : stem, {}};
        if (embedded->mHeight == 0) { // compressed: mWidth bytes of a PNG, JPEG, ...
            const auto* bytes = reinterpret_cast<const uint8_t*>(embedded->pcData);
            img.png.assign(bytes, bytes + embedded->mWidth);
        } else { // raw texels, B G R A
            texm::Image rgba(embedded->mWidth, embedded->mHeight);
            for (size_t i = 0; i < size_t(embedded->mWidth) * embedded->mHeight; ++i) {
                const aiTexel& t = embedded->pcData[i];
                uint8_t* p = rgba.rgba.data() + 4 * i;
                p[0] = t.r, p[1] = t.g, p[2] = t.b, p[3] = t.a;
            }
            img.png = png::encode_rgba(rgba);
        }
        return img;
    }
    std::vector<std::string> candidates = {name};
    if (std::filesystem::path(name).is_absolute() || name.rfind("../", 0) == 0)
        candidates = {std::filesystem::path(name).filename().string()};
    for (const std::string& c : candidates) {
        try {
            const std::filesystem::path file = confined_path(folder, c);
            std::error_code ec;
            if (std::filesystem::is_regular_file(file, ec))
                return scene::Image{stem, read_file(file)};
        } catch (const std::runtime_error&) {
        }
    }
    diagnostics.warn(where, Location::whole(),
                     "texture '" + std::string(path.C_Str()) +
                         "' not found beside the model; its material comes in untextured");
    return std::nullopt;
}

// The probe child's answers (formats/assimp_read.cpp read()).
constexpr int kProbeRead = 0, kProbeRefused = 3;

// One import with our settings; the scene is released with the object.
struct Imported {
    const Api& a;
    const aiScene* scene = nullptr;
    Imported(const Api& api_, const std::string& file, unsigned flags) : a(api_) {
        aiPropertyStore* store = a.create_store();
        a.set_integer(store, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
        scene = a.import_file(file.c_str(), flags, nullptr, store);
        a.release_store(store);
    }
    ~Imported() {
        if (scene) a.release(scene);
    }
    Imported(const Imported&) = delete;
    Imported& operator=(const Imported&) = delete;
};

} // namespace

bool handles(const std::string& file_name) {
    const std::string ext = lower(std::filesystem::path(file_name).extension().string());
    static const std::set<std::string> ours = {".msh", ".rlb",  ".lib", ".texm", ".png", ".wea",
                                               ".map", ".gltf", ".glb", ".obj",  ".mtl", ".json"};
    // Numeric suffixes are game names (`T2.0`, palette variants): answered without loading Assimp.
    if (ext.size() < 2 || ours.count(ext) ||
        ext.find_first_not_of("0123456789", 1) == std::string::npos)
        return false;
    const Api* a = api();
    return a && a->supported(ext.c_str()) == AI_TRUE;
}

scene::Scene read(const std::filesystem::path& file, DiagnosticSink& diagnostics) {
    const std::string where = file.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw FormatError(where, Location::whole(), "cannot open: not a regular file");
    const Api* a = api();
    if (!a)
        throw FormatError(where, Location::whole(),
                          "reading this format needs Assimp 5 (Debian: libassimp5), not installed");
    const unsigned flags = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_FlipUVs |
                           aiProcess_ValidateDataStructure;
    // Assimp 5.2 aborts the process on some files (a double free in its FBX reader, even on FBX
    // it wrote itself): the file is read once in a child first, so that such a file is one clear
    // error, not a crash. Foreign formats are the rare path; the second read is the price.
    // Windows has no fork(): there the file is read once.
#ifndef _WIN32
    if (const pid_t child = fork(); child == 0) {
        if (const int null = open("/dev/null", O_WRONLY); null >= 0)
            dup2(null, 2); // its abort text
        const Imported probe(*a, where, flags);
        _exit(probe.scene ? kProbeRead : kProbeRefused);
    } else if (child > 0) {
        int status = 0;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        // Anything but the two answers is a crash: a signal, or a sanitizer's own exit code.
        if (!WIFEXITED(status) ||
            (WEXITSTATUS(status) != kProbeRead && WEXITSTATUS(status) != kProbeRefused))
            throw FormatError(where, Location::whole(),
                              "Assimp crashed reading it (" +
                                  (WIFSIGNALED(status)
                                       ? "signal " + std::to_string(WTERMSIG(status))
                                       : "exit " + std::to_string(WEXITSTATUS(status))) +
                                  "): the file is damaged or uses what Assimp 5.2 mishandles");
    }
#endif
    // From the file, not from memory: formats with external parts (material files, textures)
    // find them beside it.
    const Imported imported(*a, where, flags);
    const aiScene* in = imported.scene;
    if (!in || !in->mRootNode)
        throw FormatError(where, Location::whole(),
                          std::string("Assimp cannot read it: ") + a->error());
    if (in->mFlags & AI_SCENE_FLAGS_INCOMPLETE)
        throw FormatError(where, Location::whole(), "Assimp read an incomplete scene");
    Builder b{*in, where, diagnostics, {}, {}, {}, 0, {}, {}};
    for (unsigned i = 0; i < in->mNumMaterials; ++i) {
        scene::Material m;
        aiString name;
        if (a->material_string(in->mMaterials[i], AI_MATKEY_NAME, &name) == aiReturn_SUCCESS)
            m.name = name.C_Str();
        aiColor4D colour;
        if (a->material_color(in->mMaterials[i], AI_MATKEY_BASE_COLOR, &colour) ==
                aiReturn_SUCCESS ||
            a->material_color(in->mMaterials[i], AI_MATKEY_COLOR_DIFFUSE, &colour) ==
                aiReturn_SUCCESS)
            m.base_color_factor = {colour.r, colour.g, colour.b, colour.a};
        m.base_color =
            material_image(*a, *in, *in->mMaterials[i], std::filesystem::path(where).parent_path(),
                           where, diagnostics);
        if (m.base_color) m.base_color_factor = {1, 1, 1, m.base_color_factor[3]};
        b.out.materials.push_back(std::move(m));
    }
    b.add_node(*in->mRootNode, scene::kNoIndex);
    for (int n : b.skinned_nodes) b.add_skin(n);
    for (unsigned k = 0; k < in->mNumAnimations; ++k) b.add_animation(*in->mAnimations[k]);
    if (b.skipped_primitives)
        diagnostics.warn(where, Location::whole(),
                         std::to_string(b.skipped_primitives) +
                             " point/line mesh(es) skipped (MSH models hold triangles)");
    if (in->mNumCameras || in->mNumLights)
        diagnostics.warn(where, Location::whole(),
                         std::to_string(in->mNumCameras) + " camera(s) and " +
                             std::to_string(in->mNumLights) + " light(s) ignored");
    scene::bake_residuals(b.out, b.residual, [&](int, const std::string& text) {
        diagnostics.warn(where, Location::whole(), text);
    });
    return std::move(b.out);
}

} // namespace msh::assimp_read
