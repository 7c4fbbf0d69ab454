#include "file_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace msh {

namespace fs = std::filesystem;

Bytes read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open: " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    if (size < 0) throw std::runtime_error(path.string() + ": cannot determine the size");
    in.seekg(0);
    Bytes data(static_cast<size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size))
        throw std::runtime_error(path.string() + ": read failed");
    return data;
}

void write_file_atomic(const fs::path& path, ByteView bytes) {
    fs::path dir = path.parent_path();
    if (!dir.empty()) fs::create_directories(dir);
    fs::path tmp = path;
    tmp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(tmp.string() + ": cannot create: " + std::strerror(errno));
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(tmp);
            throw std::runtime_error(path.string() + ": write failed");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp);
        throw std::runtime_error(path.string() +
                                 ": cannot rename the finished file into place: " + ec.message());
    }
}

} // namespace msh
