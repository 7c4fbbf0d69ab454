#include "file_io.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>

#ifdef _WIN32
#include <windows.h> // formats/file_io_windows.cpp: the rest of this file's system calls
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

namespace msh {

namespace fs = std::filesystem;

namespace {

std::atomic<int> writes_before_failure{-1}; // -1: no failure injected

[[maybe_unused]] std::string errno_text(int e) { // unused on Windows
    return std::strerror(e);
}

#ifndef _WIN32
// No write bit, or not writable by this user. rename() would replace such a file as long as its
// folder is writable (and root may write any file): its mode is the owner's word.
bool read_only(const fs::path& target, const struct stat& st) {
    return (st.st_mode & 0222) == 0 || ::access(target.c_str(), W_OK) != 0;
}
#endif

} // namespace

namespace detail {

bool next_write_fails() {
    const int left = writes_before_failure.load();
    if (left < 0) return false;
    writes_before_failure = left - 1;
    return left == 0;
}

// An unpredictable name beside `path`, short enough for any name limit (".mshconv-" + 16).
fs::path temporary_beside(const fs::path& path) {
#ifdef _WIN32
    static thread_local std::mt19937_64 rng{std::random_device{}() ^ uint64_t(GetCurrentProcessId())
                                                                         << 32};
#else
    // Seeded by getrandom(), not std::random_device, whose start probes the CPU with CPUID (a
    // trap to the hypervisor in a VM) on every command that writes a file.
    static thread_local std::mt19937_64 rng{[] {
        uint64_t seed = 0;
        if (::getrandom(&seed, sizeof seed, 0) != ssize_t(sizeof seed))
            seed = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
        return seed ^ (uint64_t(::getpid()) << 32);
    }()};
#endif
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string name = ".mshconv-";
    for (int i = 0; i < 16; ++i) name += digits[rng() % 36];
    return path.parent_path() / name;
}

fs::path write_target(const fs::path& path) {
    fs::path at = path;
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(at, ec)) || ec) return at;
        const fs::path to = fs::read_symlink(at, ec);
        if (ec) return at;
        at = to.is_absolute() ? to : at.parent_path() / to;
    }
    throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                         std::string() + "too many levels of symbolic links");
}

void refuse_read_only(const fs::path& path, const fs::path& target) {
    throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                         (target == path ? "" : "a link to " + target.string() + ", ") +
                             "the file is read-only; mshconv does not replace it (make it "
                             "writable, or write to another file)");
}

} // namespace detail

namespace {

#ifndef _WIN32

// The pieces one after another (a whole file is one piece), up to 1,024 per system call (IOV_MAX
// on Linux): a GLB written from a scene's arrays is a few hundred pieces.
void write_pieces(int fd, std::span<const ByteView> pieces, const fs::path& path) {
    constexpr size_t kMaxIovecs = 1024;
    std::vector<iovec> iov;
    iov.reserve(std::min(pieces.size(), kMaxIovecs));
    size_t next = 0; // the first piece not yet in iov
    for (;;) {
        while (iov.size() < kMaxIovecs && next < pieces.size()) {
            const ByteView p = pieces[next++];
            if (!p.empty()) iov.push_back({const_cast<uint8_t*>(p.data()), p.size()});
        }
        if (iov.empty()) return;
        if (detail::next_write_fails())
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "write failed: " + errno_text(ENOSPC));
        const ssize_t n = ::writev(fd, iov.data(), int(iov.size()));
        if (n < 0) {
            if (errno == EINTR) continue;
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "write failed: " + errno_text(errno));
        }
        // Drop the pieces written whole; the next one starts where the write stopped.
        size_t written = size_t(n), k = 0;
        while (k < iov.size() && written >= iov[k].iov_len) written -= iov[k++].iov_len;
        iov.erase(iov.begin(), iov.begin() + std::ptrdiff_t(k));
        if (!iov.empty()) {
            iov.front().iov_base = static_cast<uint8_t*>(iov.front().iov_base) + written;
            iov.front().iov_len -= written;
        }
    }
}
#endif

// Whether `base / rel` needs resolving to know where it leads: a `.` or `..` in `rel` or a
// symlink among its existing names. Else it leads where it reads, inside `base` whatever `base`
// itself resolves to. One lstat per name instead of resolving both whole paths: a batch rebuild
// looks up every entry of every archive (about 5 % of a game-sized rebuild).
bool may_leave_through_a_symlink(const fs::path& base, const fs::path& rel) {
    fs::path at = base;
    for (const fs::path& part : rel) {
        if (part.empty()) continue; // a trailing separator
        if (part == "." || part == "..") return true;
        at /= part;
#ifdef _WIN32
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(at, ec);
        if (ec || !fs::exists(st)) return false;
        if (fs::is_symlink(st)) return true;
#else
        struct stat st;
        if (::lstat(at.c_str(), &st) != 0) return false; // missing from here on: nothing to follow
        if (S_ISLNK(st.st_mode)) return true;
#endif
    }
    return false;
}

} // namespace

bool is_plain_file_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of(std::string_view("/\\:\0", 4)) == std::string_view::npos;
}

fs::path confined_path(const fs::path& folder, const std::string& name) {
    auto refuse = [&](const std::string& why) -> fs::path {
        throw std::runtime_error("'" + name + "' " + why + "; only names inside " +
                                 (folder.empty() ? std::string(".") : folder.string()) +
                                 " are read or written");
    };
    if (name.empty()) return refuse("is empty");
    if (name.find('\0') != std::string::npos) return refuse("holds a NUL byte");
    const fs::path rel(name);
    if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
        return refuse("is an absolute path");
    const fs::path normal = rel.lexically_normal();
    if (!normal.empty() && *normal.begin() == "..") return refuse("leaves its folder");
    // Symlinks: where the path really leads (its existing part resolved) must stay inside.
    const fs::path base = folder.empty() ? fs::path(".") : folder;
    if (!may_leave_through_a_symlink(base, rel)) return base / rel;
    std::error_code ec;
    const fs::path real_base = fs::weakly_canonical(base, ec);
    const fs::path real = fs::weakly_canonical(base / rel, ec);
    if (!ec) {
        const auto [b, r] =
            std::mismatch(real_base.begin(), real_base.end(), real.begin(), real.end());
        if (b != real_base.end()) return refuse("leads out of its folder through a symlink");
    }
    return base / rel;
}

void refuse_read_only_output(const fs::path& path) {
    const fs::path target = detail::write_target(path);
#ifdef _WIN32
    const DWORD attributes = GetFileAttributesW(target.c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY) &&
        (attributes & FILE_ATTRIBUTE_READONLY))
        detail::refuse_read_only(path, target);
#else
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode) && read_only(target, st))
        detail::refuse_read_only(path, target);
#endif
}

void inject_write_failure(int after_writes) {
    writes_before_failure = after_writes;
}

#ifndef _WIN32
namespace {

struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// Opens `path` for reading and returns its size; refuses what is not a regular file (a directory
// opens and reports a size of its own; devices and pipes have none to trust).
size_t open_regular(const fs::path& path, Descriptor& d, struct stat* stat_out = nullptr) {
    d.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (d.fd < 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(d.fd, &st) != 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot stat: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             S_ISDIR(st.st_mode) ? "is a folder, not a file"
                                                 : "not a regular file");
    if (stat_out) *stat_out = st;
    return size_t(st.st_size);
}

// Reads `size` bytes of the open file into `data`.
void read_all(const fs::path& path, const Descriptor& d, uint8_t* data, size_t size) {
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(d.fd, data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "read failed: " + std::strerror(errno));
        if (n == 0)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "the file shrank while read");
        done += size_t(n);
    }
}

} // namespace

Bytes read_file(const fs::path& path) {
    Descriptor d;
    Bytes data(open_regular(path, d));
    read_all(path, d, data.data(), data.size());
    return data;
}

MappedFile::MappedFile(const fs::path& path, Reading reading) {
    Descriptor d;
    struct stat st {};
    size_ = open_regular(path, d, &st);
    identity_ = {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                 uint64_t(st.st_mtim.tv_sec) * 1000000000u + uint64_t(st.st_mtim.tv_nsec)};
    if (size_ == 0) return;
    if (size_ < kReadBelow) {
        read_ = std::make_unique_for_overwrite<uint8_t[]>(size_);
        read_all(path, d, read_.get(), size_);
        data_ = read_.get();
        return;
    }
    const int populate = reading == Reading::Whole ? MAP_POPULATE : 0;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | populate, d.fd, 0);
    if (p == MAP_FAILED)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot map: " + std::strerror(errno));
    data_ = static_cast<const uint8_t*>(p);
}

MappedFile::~MappedFile() {
    if (mapped()) ::munmap(const_cast<uint8_t*>(data_), size_);
}
#endif

namespace {

std::mutex shared_mappings_mutex;
std::map<MappedFile::Identity, std::weak_ptr<const MappedFile>> shared_mappings;

} // namespace

std::shared_ptr<const MappedFile> map_shared(const fs::path& path) {
    // Mapped first (no page is touched: a second mapping of a file already mapped costs two
    // system calls; a small file is read again), then exchanged for the live mapping of the same
    // file version, if any.
    auto fresh = std::make_shared<const MappedFile>(path);
    const std::lock_guard lock(shared_mappings_mutex);
    for (auto i = shared_mappings.begin(); i != shared_mappings.end();) // drop unused ones
        i = i->second.expired() ? shared_mappings.erase(i) : std::next(i);
    auto& slot = shared_mappings[fresh->identity()];
    if (auto existing = slot.lock()) return existing;
    slot = fresh;
    return fresh;
}

void release_mapped_pages(ByteView bytes) {
    if (bytes.empty()) return;
    const uintptr_t lo = uintptr_t(bytes.data()), hi = lo + bytes.size();
    const std::lock_guard lock(shared_mappings_mutex);
    for (const auto& [identity, weak] : shared_mappings) {
        const std::shared_ptr<const MappedFile> m = weak.lock();
        if (!m || !m->mapped()) continue; // read into memory: its pages are not the file's
        const uintptr_t start = uintptr_t(m->bytes().data()), end = start + m->bytes().size();
        if (lo < start || hi > end) continue;
            // Whole pages around the range: a read-only private mapping of a file reads a dropped
            // page back from the page cache when it is touched again (by a neighbouring entry).
#ifdef _WIN32
        // Unlocking pages that are not locked takes them out of the working set.
        VirtualUnlock(reinterpret_cast<void*>(lo), hi - lo);
#else
        const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
        const uintptr_t from = lo & ~(page - 1); // the mapping starts on a page
        const uintptr_t to = std::min(end, (hi + page - 1) & ~(page - 1));
        ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
#endif
        return;
    }
}

#ifndef _WIN32
AtomicFileSet::~AtomicFileSet() {
    for (const Pending& p : pending_) ::unlink(p.temporary.c_str());
}
#endif

void AtomicFileSet::add(const fs::path& path, ByteView bytes) {
    add(path, std::span<const ByteView>(&bytes, 1));
}

#ifndef _WIN32

void AtomicFileSet::add(const fs::path& path, std::span<const ByteView> pieces) {
    const fs::path target = detail::write_target(path);
    struct stat old {};
    const bool replacing = ::stat(target.c_str(), &old) == 0;
    if (replacing) {
        if (S_ISDIR(old.st_mode))
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "is a folder, not a file");
        if (read_only(target, old)) detail::refuse_read_only(path, target);
    }
    const fs::path dir = target.parent_path();
    if (!dir.empty()) fs::create_directories(dir);
    int fd = -1;
    fs::path tmp;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = detail::temporary_beside(target);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                 std::string() + "cannot create: " + errno_text(errno));
    }
    if (fd < 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "cannot create a temporary file");
    pending_.push_back({tmp, target, replacing && old.st_nlink > 1});
    try {
        write_pieces(fd, pieces, path);
        if (replacing) {
            // The replaced file's owner and group, where the user may set them (an owner only
            // root; a group the user belongs to), then its mode (after: chown clears setuid).
            if (::fchown(fd, old.st_uid, old.st_gid) != 0)
                (void)!::fchown(fd, uid_t(-1), old.st_gid);
            if (::fchmod(fd, old.st_mode & 07777) != 0)
                throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                     std::string() +
                                         "cannot keep the file's mode: " + errno_text(errno));
            // Its old content must not be lost to a crash before the new one is on disk. A new
            // file costs no fsync (a crash loses only what was not there).
            if (::fsync(fd) != 0)
                throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                                     std::string() + "write failed: " + errno_text(errno));
        }
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(path.string()),
                             std::string() + "write failed: " + errno_text(errno));
}

namespace {

// The finished temporary copied into `target` over its old content (the file's inode, and so
// every hard link to it, stays), then removed.
void copy_into_place(const fs::path& temporary, const fs::path& target) {
    Descriptor from, to;
    from.fd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
    to.fd = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (from.fd < 0 || to.fd < 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                             std::string() + "cannot rewrite in place: " + errno_text(errno));
    std::vector<uint8_t> buffer(size_t(1) << 20);
    for (;;) {
        const ssize_t n = ::read(from.fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw mshconv::Error(mshconv::ErrorPlace::of_file(temporary.string()),
                                 std::string() + "read failed: " + errno_text(errno));
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
            const ssize_t w = ::write(to.fd, buffer.data() + done, size_t(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0)
                throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                                     std::string() + "write failed: " + errno_text(errno));
            done += w;
        }
    }
    if (::fsync(to.fd) != 0)
        throw mshconv::Error(mshconv::ErrorPlace::of_file(target.string()),
                             std::string() + "write failed: " + errno_text(errno));
    ::unlink(temporary.c_str());
}

} // namespace

void AtomicFileSet::commit() {
    for (size_t i = 0; i < pending_.size(); ++i) {
        std::error_code ec;
        if (pending_[i].in_place) {
            try {
                copy_into_place(pending_[i].temporary, pending_[i].final);
            } catch (...) {
                pending_.erase(pending_.begin(), pending_.begin() + long(i));
                throw;
            }
            continue;
        }
        fs::rename(pending_[i].temporary, pending_[i].final, ec);
        if (ec) {
            // The earlier ones are in place; the rest are removed by the destructor.
            pending_.erase(pending_.begin(), pending_.begin() + long(i));
            throw mshconv::Error(mshconv::ErrorPlace::of_file(pending_.front().final.string()),
                                 "cannot rename the finished file into place: " + ec.message());
        }
    }
    pending_.clear();
}
#endif

void write_file_atomic(const fs::path& path, std::span<const ByteView> pieces) {
    AtomicFileSet set;
    set.add(path, pieces);
    set.commit();
}

void write_file_atomic(const fs::path& path, ByteView bytes) {
    write_file_atomic(path, std::span<const ByteView>(&bytes, 1));
}

} // namespace msh
