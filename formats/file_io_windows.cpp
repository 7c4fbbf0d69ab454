// The file layer's system calls on Windows (formats/file_io.hpp; file_io.cpp holds the POSIX
// ones and what both share): files opened with wide names, mapped with CreateFileMapping, written
// to a temporary created exclusively (CREATE_NEW) and moved into place with MoveFileEx, which
// replaces an existing file in one step.
#ifdef _WIN32

#include "file_io.hpp"

#include <windows.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace msh {

namespace fs = std::filesystem;

namespace {

// The text Linux prints for the usual errors, so that messages read the same on both; the
// system's own for the rest.
std::string error_text(DWORD error) {
    switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        return std::strerror(ENOENT);
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
        return std::strerror(EACCES);
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return std::strerror(ENOSPC);
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
        return std::strerror(EEXIST);
    default:
        return std::error_code(int(error), std::system_category()).message();
    }
}

struct Handle {
    HANDLE h = INVALID_HANDLE_VALUE;
    ~Handle() {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
};

// Opens `path` for reading (others may still read, replace or delete it) and returns its size;
// refuses what is not a regular file, as file_io.cpp's open_regular.
size_t open_regular(const fs::path& path, Handle& file, BY_HANDLE_FILE_INFORMATION* info_out) {
    const DWORD attributes = GetFileAttributesW(path.c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "is a folder, not a file");
    file.h = CreateFileW(path.c_str(), GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file.h == INVALID_HANDLE_VALUE)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot open: " + error_text(GetLastError()));
    if (GetFileType(file.h) != FILE_TYPE_DISK)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "not a regular file");
    BY_HANDLE_FILE_INFORMATION info{};
    if (!GetFileInformationByHandle(file.h, &info))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot stat: " + error_text(GetLastError()));
    if (info_out) *info_out = info;
    return size_t(uint64_t(info.nFileSizeHigh) << 32 | info.nFileSizeLow);
}

void read_all(const fs::path& path, const Handle& file, uint8_t* data, size_t size) {
    size_t done = 0;
    while (done < size) {
        const DWORD want = DWORD(std::min<size_t>(size - done, 1u << 30));
        DWORD got = 0;
        if (!ReadFile(file.h, data + done, want, &got, nullptr))
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "read failed: " + error_text(GetLastError()));
        if (got == 0)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "the file shrank while read");
        done += got;
    }
}

void write_pieces(const Handle& file, std::span<const ByteView> pieces, const fs::path& path) {
    for (const ByteView piece : pieces) {
        size_t done = 0;
        while (done < piece.size()) {
            if (detail::next_write_fails())
                throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                     std::string() + "write failed: " + std::strerror(ENOSPC));
            const DWORD want = DWORD(std::min<size_t>(piece.size() - done, 1u << 30));
            DWORD wrote = 0;
            if (!WriteFile(file.h, piece.data() + done, want, &wrote, nullptr))
                throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                     std::string() + "write failed: " + error_text(GetLastError()));
            done += wrote;
        }
    }
}

} // namespace

Bytes read_file(const fs::path& path) {
    Handle file;
    Bytes data(open_regular(path, file, nullptr));
    read_all(path, file, data.data(), data.size());
    return data;
}

MappedFile::MappedFile(const fs::path& path, Reading) {
    Handle file;
    BY_HANDLE_FILE_INFORMATION info{};
    size_ = open_regular(path, file, &info);
    identity_ = {uint64_t(info.dwVolumeSerialNumber),
                 uint64_t(info.nFileIndexHigh) << 32 | info.nFileIndexLow, uint64_t(size_),
                 uint64_t(info.ftLastWriteTime.dwHighDateTime) << 32 |
                     info.ftLastWriteTime.dwLowDateTime};
    if (size_ == 0) return;
    if (size_ < kReadBelow) {
        read_ = std::make_unique_for_overwrite<uint8_t[]>(size_);
        read_all(path, file, read_.get(), size_);
        data_ = read_.get();
        return;
    }
    // The view keeps the mapping and the file open; both handles can go.
    Handle mapping;
    mapping.h = CreateFileMappingW(file.h, nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (!mapping.h) {
        mapping.h = INVALID_HANDLE_VALUE;
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot map: " + error_text(GetLastError()));
    }
    const void* view = MapViewOfFile(mapping.h, FILE_MAP_READ, 0, 0, size_);
    if (!view)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot map: " + error_text(GetLastError()));
    data_ = static_cast<const uint8_t*>(view);
}

MappedFile::~MappedFile() {
    if (mapped()) UnmapViewOfFile(data_);
}

namespace {

DWORD link_count(const fs::path& path) {
    Handle file;
    file.h = CreateFileW(path.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    BY_HANDLE_FILE_INFORMATION info{};
    if (file.h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(file.h, &info)) return 1;
    return info.nNumberOfLinks;
}

// As file_io.cpp's: the finished temporary copied over the file's old content (the file, and so
// every hard link to it, stays), then removed.
void copy_into_place(const fs::path& temporary, const fs::path& target) {
    Handle from, to;
    from.h = CreateFileW(temporary.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
    to.h = CreateFileW(target.c_str(), GENERIC_WRITE, 0, nullptr, TRUNCATE_EXISTING,
                       FILE_ATTRIBUTE_NORMAL, nullptr);
    if (from.h == INVALID_HANDLE_VALUE || to.h == INVALID_HANDLE_VALUE)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                             std::string() +
                                 "cannot rewrite in place: " + error_text(GetLastError()));
    std::vector<uint8_t> buffer(size_t(1) << 20);
    for (;;) {
        DWORD got = 0;
        if (!ReadFile(from.h, buffer.data(), DWORD(buffer.size()), &got, nullptr))
            throw mshconv::Error(mshconv::ErrorPlace::of_file(temporary.string()),
                                 std::string() + "read failed: " + error_text(GetLastError()));
        if (got == 0) break;
        DWORD put = 0;
        if (!WriteFile(to.h, buffer.data(), got, &put, nullptr) || put != got)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                                 std::string() + "write failed: " + error_text(GetLastError()));
    }
    if (!FlushFileBuffers(to.h))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                             std::string() + "write failed: " + error_text(GetLastError()));
    CloseHandle(from.h);
    from.h = INVALID_HANDLE_VALUE;
    DeleteFileW(temporary.c_str());
}

} // namespace

AtomicFileSet::~AtomicFileSet() {
    for (const Pending& p : pending_) DeleteFileW(p.temporary.c_str());
}

void AtomicFileSet::add(const fs::path& path, std::span<const ByteView> pieces) {
    const fs::path target = detail::write_target(path);
    const DWORD old_attributes = GetFileAttributesW(target.c_str());
    const bool replacing = old_attributes != INVALID_FILE_ATTRIBUTES;
    if (replacing && (old_attributes & FILE_ATTRIBUTE_DIRECTORY))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "is a folder, not a file");
    if (replacing && (old_attributes & FILE_ATTRIBUTE_READONLY))
        detail::refuse_read_only(path, target);
    const fs::path dir = target.parent_path();
    if (!dir.empty()) fs::create_directories(dir);
    Handle file;
    fs::path tmp;
    for (int attempt = 0; attempt < 100 && file.h == INVALID_HANDLE_VALUE; ++attempt) {
        tmp = detail::temporary_beside(target);
        file.h = CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                             FILE_ATTRIBUTE_NORMAL, nullptr);
        if (file.h == INVALID_HANDLE_VALUE && GetLastError() != ERROR_FILE_EXISTS)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "cannot create: " + error_text(GetLastError()));
    }
    if (file.h == INVALID_HANDLE_VALUE)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot create a temporary file");
    pending_.push_back(
        {tmp, target, replacing && link_count(target) > 1, replacing ? old_attributes : 0});
    write_pieces(file, pieces, path);
    // Replacing an existing file: its old content must not be lost to a crash before the new one
    // is on disk. A new file costs no flush.
    if (replacing && !FlushFileBuffers(file.h))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "write failed: " + error_text(GetLastError()));
    const HANDLE h = file.h;
    file.h = INVALID_HANDLE_VALUE;
    if (!CloseHandle(h))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "write failed: " + error_text(GetLastError()));
}

void AtomicFileSet::commit() {
    for (size_t i = 0; i < pending_.size(); ++i) {
        if (pending_[i].in_place) {
            try {
                copy_into_place(pending_[i].temporary, pending_[i].final);
            } catch (...) {
                pending_.erase(pending_.begin(), pending_.begin() + long(i));
                throw;
            }
            continue;
        }
        if (!MoveFileExW(pending_[i].temporary.c_str(), pending_[i].final.c_str(),
                         MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            const DWORD error = GetLastError();
            // The earlier ones are in place; the rest are removed by the destructor.
            pending_.erase(pending_.begin(), pending_.begin() + long(i));
            throw mshconv::Error(mshconv::ErrorPlace::of_file(pending_.front().final.string()),
                                 "cannot rename the finished file into place: " +
                                     error_text(error));
        }
        // The replaced file's hidden, system and archive attributes come back.
        constexpr DWORD kKept = FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM |
                                FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_NOT_CONTENT_INDEXED;
        if (const DWORD kept = pending_[i].attributes & kKept)
            SetFileAttributesW(pending_[i].final.c_str(), kept);
    }
    pending_.clear();
}

} // namespace msh

#endif
