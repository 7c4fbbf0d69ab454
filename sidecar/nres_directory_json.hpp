// The NRes directory of a file a binding sidecar rebuilds (docs/sidecar.md): entries without
// payloads (type, name, attributes, sort index, and where each payload comes from), the physical
// layout (payloads by their offset as read, canonical pads, gaps verbatim) and trailing bytes, so
// that the rebuilt file is laid out as the original was.
#pragma once

#include "formats/nres.hpp"

#include <functional>
#include <string>
#include <vector>

namespace msh::sidecar {

class JsonAt;
class ReadableJson;

// The columns of a directory's entry rows.
inline constexpr const char* kDirectoryEntryColumns[] = {"type",  "name",       "attr1",  "attr2",
                                                         "attr3", "sort_index", "content"};

// {"entries": {"columns", "rows"}, "layout", "trailing"}; `content(i)` names where entry i's
// payload comes from. A name is text when it converts back to the same 36 bytes, else {"hex": 36
// bytes}. The entry rows one per line (`table`), or laid out as any array.
void write_directory(ReadableJson& w, const nres::Archive& directory,
                     const std::function<std::string_view(size_t entry)>& content, bool table);

// The directory `at` holds, entries without payloads; `content` gets each entry's index into
// `content_names`. Every problem is a FormatError at its JSON pointer.
nres::Archive read_directory(const JsonAt& at, const std::vector<std::string>& content_names,
                             std::vector<size_t>& content);

// The blocks of the entries `is_block` marks: /blocks as [{"entry", "type", "size", "xxh3_64",
// "base64"}], one for each such entry and none for another; `result[i]` is entry i's bytes (empty
// for an entry that is not a block).
std::vector<Bytes> read_entry_blocks(const JsonAt& blocks, const nres::Archive& directory,
                                     const std::vector<bool>& is_block);

} // namespace msh::sidecar
