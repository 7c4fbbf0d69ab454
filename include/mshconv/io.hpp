// Where the library reads its inputs and writes its outputs. Every job goes through one Io: the
// disk by default (FileIo), memory in tests and services (MemoryIo), or the caller's own (an
// archive store, a network cache). Public header: standard library only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace mshconv {

using Path = std::filesystem::path;

// A file's bytes, valid while `owner` lives (a mapping of the file, or a buffer).
struct FileBytes {
    std::span<const uint8_t> bytes;
    std::shared_ptr<const void> owner;
};

// One file of an output set: its path and its bytes, in pieces written in order.
struct FileToWrite {
    Path path;
    std::vector<std::span<const uint8_t>> pieces;
};

class Io {
  public:
    virtual ~Io() = default;
    // The whole file; throws std::runtime_error naming `path` when it cannot be read.
    virtual FileBytes read(const Path& path) = 0;
    virtual bool is_file(const Path& path) = 0;
    virtual bool is_folder(const Path& path) = 0;
    // The names of the files and folders in `folder` (not recursive), sorted; empty when there
    // is no such folder.
    virtual std::vector<std::string> list(const Path& folder) = 0;
    // Whether two paths name one file (the same path, or one file reached twice).
    virtual bool same_file(const Path& a, const Path& b) = 0;
    // Every file below `folder` (recursive), as paths relative to it, sorted; the folder
    // `exclude` (an output inside the input) is left out. By default built on list().
    virtual std::vector<Path> list_files(const Path& folder, const Path& exclude = {});
    // The file's size in bytes (0 when it cannot be read). By default the size read() gives.
    virtual uint64_t size(const Path& path);
    // Writes the files as one set: all of them appear, in order, or none does (a failure throws
    // and leaves none of them).
    virtual void write_set(const std::vector<FileToWrite>& files) = 0;
};

// The disk: files mapped for reading, sets written through temporaries renamed into place.
class FileIo final : public Io {
  public:
    FileBytes read(const Path& path) override;
    bool is_file(const Path& path) override;
    bool is_folder(const Path& path) override;
    std::vector<std::string> list(const Path& folder) override;
    bool same_file(const Path& a, const Path& b) override;
    void write_set(const std::vector<FileToWrite>& files) override;
    // Folder symlinks are not followed (a link back up the tree would never end).
    std::vector<Path> list_files(const Path& folder, const Path& exclude = {}) override;
    uint64_t size(const Path& path) override;
};

// The process's FileIo, what the library uses when no Io is given.
FileIo& disk();

// Whether `inner` is `outer` or lies below it, as `io` sees the two (a link to the same folder
// counts): an output that would land inside an input.
bool is_within(Io& io, const Path& inner, const Path& outer);

// Files held in memory under their normalized generic paths ("dir/a.glb"); folders are implied
// by the files beneath them. Reads hand out shared views of the stored bytes. Safe to use from
// several threads (batch runs its items in parallel).
class MemoryIo final : public Io {
  public:
    MemoryIo() = default;
    MemoryIo(const MemoryIo& other);
    MemoryIo(MemoryIo&& other) noexcept;
    MemoryIo& operator=(MemoryIo other) noexcept; // copies share the stored bytes

    void put(const Path& path, std::vector<uint8_t> bytes);
    // The bytes stored at `path`; throws std::runtime_error when there is no such file.
    const std::vector<uint8_t>& at(const Path& path) const;
    // Every stored path, sorted.
    std::vector<std::string> paths() const;

    FileBytes read(const Path& path) override;
    bool is_file(const Path& path) override;
    bool is_folder(const Path& path) override;
    std::vector<std::string> list(const Path& folder) override;
    bool same_file(const Path& a, const Path& b) override;
    void write_set(const std::vector<FileToWrite>& files) override;

  private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> files_;
};

} // namespace mshconv
