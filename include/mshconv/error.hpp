// The error the library throws for an input it cannot read or use (a damaged file, a sidecar that
// does not fit, an edit the game cannot hold), with where it lies as fields: a caller reads the
// offset or the JSON pointer instead of parsing what(). A request that cannot run as asked is a
// UsageError (convert.hpp) instead. Public header: standard library only.
//
//   try {
//       mshconv::convert({"house.glb", "static.rlb:House_01.msh"});
//   } catch (const mshconv::Error& e) {
//       if (e.place().pointer) std::printf("sidecar field %s\n", e.place().pointer->c_str());
//   }
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mshconv {

// A request that cannot run as asked (a bad option value or combination, an output that is an
// input): the command line's exit code 2. Damaged or unreadable inputs throw mshconv::Error.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Where an error lies, as far as it is known; what() names the same place.
struct ErrorPlace {
    std::string file;                     // the file on disk, as the request named it
    std::vector<std::string> entries;     // archive entries inside it, the outermost first
    std::string resource;                 // inside them: "Res7", "entry 3 'TANK.msh'", a file
    std::optional<uint64_t> offset;       // bytes into the resource (or the file)
    std::optional<uint64_t> line, column; // text formats (OBJ, MTL, WEAR), 1-based
    std::optional<std::string> pointer;   // JSON formats (glTF, sidecars): RFC 6901

    // The file as a whole.
    static ErrorPlace of_file(std::string file) {
        ErrorPlace place;
        place.file = std::move(file);
        return place;
    }
};

class Error : public std::runtime_error {
  public:
    // what(): "FILE:ENTRY: RESOURCE: offset N: MESSAGE", each part where it is known.
    Error(ErrorPlace place, const std::string& message);
    const ErrorPlace& place() const noexcept { return place_; }
    // What went wrong, without the place.
    const std::string& message() const noexcept { return message_; }

  protected:
    // A place found later (the request's file and entries at the front of `resource`): what()
    // stays the same text.
    void set_place(ErrorPlace place) { place_ = std::move(place); }

  private:
    ErrorPlace place_;
    std::string message_;
};

// The text what() gives for `place` and `message`.
std::string describe(const ErrorPlace& place, const std::string& message);

} // namespace mshconv
