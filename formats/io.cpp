// The library's two Io implementations (include/mshconv/io.hpp): the disk, through file_io's
// mappings and atomic sets, and memory.
#include <mshconv/io.hpp>

#include "file_io.hpp"
#include "recording_io.hpp"

#include <algorithm>
#include <stdexcept>

namespace mshconv {

namespace fs = std::filesystem;

FileBytes FileIo::read(const Path& path) {
    auto file = msh::map_shared(path);
    const msh::ByteView bytes = file->bytes();
    return {bytes, std::move(file)};
}

bool FileIo::is_file(const Path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

bool FileIo::is_folder(const Path& path) {
    std::error_code ec;
    return fs::is_directory(path.empty() ? Path(".") : path, ec);
}

std::vector<std::string> FileIo::list(const Path& folder) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder.empty() ? Path(".") : folder, ec))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool FileIo::same_file(const Path& a, const Path& b) {
    std::error_code ec;
    if (fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal())
        return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

void FileIo::write_set(const std::vector<FileToWrite>& files) {
    msh::AtomicFileSet set;
    for (const FileToWrite& f : files) set.add(f.path, f.pieces);
    set.commit();
}

std::vector<Path> Io::list_files(const Path& folder, const Path& exclude) {
    std::vector<Path> files;
    std::vector<Path> pending{Path()}; // relative to `folder`
    while (!pending.empty()) {
        const Path rel = pending.back();
        pending.pop_back();
        for (const std::string& name : list(folder / rel)) {
            const Path path = folder / rel / name;
            if (is_file(path))
                files.push_back(rel / name);
            else if (is_folder(path) && !(!exclude.empty() && same_file(path, exclude)))
                pending.push_back(rel / name);
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

uint64_t Io::size(const Path& path) {
    try {
        return read(path).bytes.size();
    } catch (const std::exception&) {
        return 0;
    }
}

std::vector<Path> FileIo::list_files(const Path& folder, const Path& exclude) {
    std::error_code ec;
    const Path skip = exclude.empty() ? Path() : fs::weakly_canonical(exclude, ec);
    std::vector<Path> files;
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!skip.empty() && it->is_directory(ec) && fs::weakly_canonical(it->path(), ec) == skip) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(ec)) files.push_back(it->path().lexically_relative(folder));
    }
    if (ec) throw std::runtime_error("cannot list the folder: " + ec.message());
    std::sort(files.begin(), files.end());
    return files;
}

uint64_t FileIo::size(const Path& path) {
    std::error_code ec;
    const auto n = fs::file_size(path, ec);
    return ec ? 0 : uint64_t(n);
}

FileIo& disk() {
    static FileIo io;
    return io;
}

namespace {

std::string key_of(const Path& path) {
    std::string key = path.lexically_normal().generic_string();
    while (key.size() > 1 && key.back() == '/') key.pop_back();
    if (key.starts_with("./")) key.erase(0, 2);
    return key == "." ? std::string() : key;
}

} // namespace

MemoryIo::MemoryIo(const MemoryIo& other) {
    const std::lock_guard lock(other.mutex_);
    files_ = other.files_;
}

MemoryIo::MemoryIo(MemoryIo&& other) noexcept {
    const std::lock_guard lock(other.mutex_);
    files_ = std::move(other.files_);
}

MemoryIo& MemoryIo::operator=(MemoryIo other) noexcept {
    const std::lock_guard lock(mutex_);
    files_ = std::move(other.files_);
    return *this;
}

void MemoryIo::put(const Path& path, std::vector<uint8_t> bytes) {
    const std::lock_guard lock(mutex_);
    files_[key_of(path)] = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

const std::vector<uint8_t>& MemoryIo::at(const Path& path) const {
    const std::lock_guard lock(mutex_);
    const auto it = files_.find(key_of(path));
    if (it == files_.end())
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "no such file");
    return *it->second;
}

std::vector<std::string> MemoryIo::paths() const {
    const std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [key, bytes] : files_) out.push_back(key);
    return out;
}

FileBytes MemoryIo::read(const Path& path) {
    const std::lock_guard lock(mutex_);
    const auto it = files_.find(key_of(path));
    if (it == files_.end())
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot open: no such file");
    return {*it->second, it->second};
}

bool MemoryIo::is_file(const Path& path) {
    const std::lock_guard lock(mutex_);
    return files_.contains(key_of(path));
}

bool MemoryIo::is_folder(const Path& path) {
    const std::string prefix = key_of(path);
    if (prefix.empty()) return true;
    const std::lock_guard lock(mutex_);
    const auto it = files_.lower_bound(prefix + "/");
    return it != files_.end() && it->first.starts_with(prefix + "/");
}

std::vector<std::string> MemoryIo::list(const Path& folder) {
    const std::lock_guard lock(mutex_);
    const std::string key = key_of(folder);
    const std::string prefix = key.empty() ? key : key + "/";
    std::vector<std::string> names;
    for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.starts_with(prefix);
         ++it) {
        const std::string rest = it->first.substr(prefix.size());
        names.push_back(rest.substr(0, rest.find('/')));
    }
    // "a.txt" sorts between "a" and "a/b": the folder's name comes in more than once.
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

bool MemoryIo::same_file(const Path& a, const Path& b) {
    return key_of(a) == key_of(b);
}

void MemoryIo::write_set(const std::vector<FileToWrite>& files) {
    // Every file is assembled before any is stored: the set appears whole or not at all.
    std::vector<std::pair<std::string, std::vector<uint8_t>>> ready;
    for (const FileToWrite& f : files) {
        std::vector<uint8_t> bytes;
        for (const auto& piece : f.pieces) bytes.insert(bytes.end(), piece.begin(), piece.end());
        ready.emplace_back(key_of(f.path), std::move(bytes));
    }
    const std::lock_guard lock(mutex_);
    for (auto& [key, bytes] : ready)
        files_[key] = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

} // namespace mshconv

namespace msh {

bool on_disk(const mshconv::Io* io) {
    while (const auto* forwarding = dynamic_cast<const RecordingIo*>(io)) io = &forwarding->inner();
    return !io || dynamic_cast<const mshconv::FileIo*>(io) != nullptr;
}

std::filesystem::path confined_path(mshconv::Io* io, const std::filesystem::path& folder,
                                    const std::string& name) {
    if (on_disk(io)) return confined_path(folder, name);
    const std::filesystem::path relative = std::filesystem::path(name).lexically_normal();
    if (name.empty() || relative.is_absolute() || relative.has_root_name() ||
        (!relative.empty() && *relative.begin() == ".."))
        throw std::runtime_error("'" + name + "' leads outside " + folder.string());
    return folder / relative;
}

Bytes read_confined(mshconv::Io* io, const std::filesystem::path& folder, const std::string& name) {
    const std::filesystem::path path = confined_path(io, folder, name);
    if (on_disk(io)) return read_file(path);
    const mshconv::FileBytes file = io->read(path);
    return Bytes(file.bytes.begin(), file.bytes.end());
}

} // namespace msh
