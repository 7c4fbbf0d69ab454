// An Io that forwards to another and keeps the path of every file it writes: what a conversion
// reports as written. Reads through it count as reads of the Io it wraps (on_disk() sees through).
#pragma once

#include <mshconv/io.hpp>

#include <string>
#include <vector>

namespace msh {

class RecordingIo final : public mshconv::Io {
  public:
    explicit RecordingIo(mshconv::Io& inner) : inner_(inner) {}
    mshconv::Io& inner() const { return inner_; }
    std::vector<std::string> written;

    mshconv::FileBytes read(const mshconv::Path& p) override { return inner_.read(p); }
    bool is_file(const mshconv::Path& p) override { return inner_.is_file(p); }
    bool is_folder(const mshconv::Path& p) override { return inner_.is_folder(p); }
    std::vector<std::string> list(const mshconv::Path& p) override { return inner_.list(p); }
    bool same_file(const mshconv::Path& a, const mshconv::Path& b) override {
        return inner_.same_file(a, b);
    }
    std::vector<mshconv::Path> list_files(const mshconv::Path& folder,
                                          const mshconv::Path& exclude = {}) override {
        return inner_.list_files(folder, exclude);
    }
    uint64_t size(const mshconv::Path& p) override { return inner_.size(p); }
    void write_set(const std::vector<mshconv::FileToWrite>& files) override {
        inner_.write_set(files);
        for (const mshconv::FileToWrite& f : files) written.push_back(f.path.string());
    }

  private:
    mshconv::Io& inner_;
};

} // namespace msh
