// Whole-file I/O. Writes are atomic: each file is first written to a temporary in its own folder,
// created exclusively under an unpredictable name (O_CREAT | O_EXCL | O_NOFOLLOW, so a planted file
// or symlink is never followed or truncated), and renamed into place only when complete; a file
// that replaces an existing one is fsynced first. A set of files (a glTF with its .bin and
// images, a map's Land.msh + Land.map, an export and its sidecar) is written the same way: every
// temporary first, then the renames, so a failed run (a full disk, an error half-way) leaves none
// of the set. Errors name the final path, never the temporary.
#pragma once

#include "bytes.hpp"

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msh {

Bytes read_file(const std::filesystem::path& path);

// How a reader uses a file: some of its parts (a lookup of a few textures in a 45 MB
// Textures.lib) or every byte (a GLB, a sidecar's text, a hash of the file).
enum class Reading { Parts, Whole };

// A regular file mapped read-only: the pages a reader touches are all that is read. A file under
// kReadBelow bytes is read into memory instead (in a process with two threads each munmap flushes
// the other core's TLB; a reverse batch unmapped 1,100 files). A file read Whole is mapped with
// every page entered at once (MAP_POPULATE): on this kind of VM a 4 KB fault of a mapping costs
// 10 us, and a copy into fresh memory costs the zeroing of that memory (the unchanged import of
// the stress map's 40 MB GLB: 75 -> 65 ms against reading it). Errors as read_file.
class MappedFile {
  public:
    static constexpr size_t kReadBelow = size_t(1) << 20;

    explicit MappedFile(const std::filesystem::path& path, Reading reading = Reading::Parts);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    ByteView bytes() const { return {data_, size_}; }
    // Whether the bytes are a mapping of the file (false: read into memory, or empty).
    bool mapped() const { return data_ && !read_; }
    // Which file, in which version: device, inode, size, modification time (ns).
    using Identity = std::array<uint64_t, 4>;
    const Identity& identity() const { return identity_; }

  private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    std::unique_ptr<uint8_t[]> read_; // the bytes of a file read into memory
    Identity identity_{};
};
// The mapping of `path` shared with every other user of the same file (the same version) that
// is mapped at the moment: a batch converting Textures.lib and the material library its models
// are textured from then hold one set of pages, not two.
std::shared_ptr<const MappedFile> map_shared(const std::filesystem::path& path);
// Lets the pages of `bytes` leave the resident set when they lie in a live map_shared() mapping
// (touched again, they are read back from the page cache); anything else is left alone. A batch
// calls it when a job is done with an archive entry: its memory then follows the jobs running,
// not the size of the archives queued.
void release_mapped_pages(ByteView bytes);
void write_file_atomic(const std::filesystem::path& path, ByteView bytes);
// The file made of `pieces` in order (an archive written without assembling it in memory).
void write_file_atomic(const std::filesystem::path& path, std::span<const ByteView> pieces);

// Files that appear together or not at all. add() writes a temporary (throws on failure, after
// which the set is abandoned); commit() renames every temporary into place in the order added;
// a set destroyed without commit() removes its temporaries.
// An existing file keeps what it is (docs/cli.md, "Writing into existing files"): a symlink stays
// a link and the file it names receives the content (the temporary goes beside that file); the
// mode, owner and group (Windows: the attributes) are kept as far as the user's rights allow; a
// read-only file is refused before anything is written; a file with several hard links is
// rewritten in place once its new content is written in full beside it, so every name sees it.
class AtomicFileSet {
  public:
    AtomicFileSet() = default;
    AtomicFileSet(const AtomicFileSet&) = delete;
    AtomicFileSet& operator=(const AtomicFileSet&) = delete;
    ~AtomicFileSet();

    void add(const std::filesystem::path& path, ByteView bytes);
    void add(const std::filesystem::path& path, std::span<const ByteView> pieces);
    void commit();

  private:
    struct Pending {
        std::filesystem::path temporary, final;
        bool in_place = false;   // several hard links: copied into the file, not renamed over it
        uint32_t attributes = 0; // Windows: the replaced file's attributes
    };
    std::vector<Pending> pending_;
};

// Throws the refusal AtomicFileSet::add gives when `path` (or the file its links lead to) is an
// existing read-only file: a command checks its OUT before it does any work.
void refuse_read_only_output(const std::filesystem::path& path);

// Whether `name` (read from a sidecar) names a file beside another one: not empty, not `.` or
// `..`, no `/`, `\`, `:` or NUL. A sidecar's mip PNGs and a glTF's buffer are such names.
bool is_plain_file_name(std::string_view name);

// `folder / name` for a name read from a file (a manifest, a sidecar, a glTF URI) that must stay
// inside `folder`: a relative path with no `..` leaving it and no symlink on the way that leads
// out. Else std::runtime_error saying so (callers add where the name came from).
std::filesystem::path confined_path(const std::filesystem::path& folder, const std::string& name);
// The same for a folder seen through `io` (null: the disk). An Io other than the disk has no
// symlinks: there the name is confined by its path alone.
std::filesystem::path confined_path(mshconv::Io* io, const std::filesystem::path& folder,
                                    const std::string& name);
// The file `name` of `folder`, confined so, read through `io` (null: the disk).
Bytes read_confined(mshconv::Io* io, const std::filesystem::path& folder, const std::string& name);
// Whether `io` is the disk (null counts as the disk).
bool on_disk(const mshconv::Io* io);

// For tests: the file write after `after_writes` more writes fails as a full disk would (ENOSPC);
// -1 turns it off.
void inject_write_failure(int after_writes);

// Shared by the system's own parts of the file layer (formats/file_io_windows.cpp on Windows).
namespace detail {
// Counts a write; true for the one inject_write_failure() makes fail.
bool next_write_fails();
std::filesystem::path temporary_beside(const std::filesystem::path& path);
// Where a write to `path` lands: `path`, or the file its symlinks lead to (also one that does not
// exist yet). Throws when the links loop.
std::filesystem::path write_target(const std::filesystem::path& path);
// The refusal of a read-only OUT.
[[noreturn]] void refuse_read_only(const std::filesystem::path& path,
                                   const std::filesystem::path& target);
} // namespace detail

} // namespace msh
