// The conversion jobs on the disk, for the commands that run them item by item (batch, preview,
// info, validate, nres, survey): addresses resolved and files read through mshconv::disk().
#pragma once

#include "convert_options.hpp"

#include "conversion/convert.hpp"

namespace msh::cli {

using conversion::Address;
using conversion::find_sibling_in;
using conversion::ImportChoices;
using conversion::Loaded;
using conversion::lower_ascii;
using conversion::model_wear_name;
using conversion::ModelExportContext;
using conversion::new_member;
using conversion::Sibling;

inline Address parse_address(const std::string& spec) {
    return conversion::parse_address(mshconv::disk(), spec);
}
inline Loaded load(const Address& address) {
    return conversion::load(mshconv::disk(), address);
}
inline std::optional<Sibling> find_sibling(const Address& address, const std::string& leaf) {
    return conversion::find_sibling(mshconv::disk(), address, leaf);
}
inline bool same_path(const std::filesystem::path& a, const std::filesystem::path& b) {
    return mshconv::disk().same_file(a, b);
}

// A job on the disk with the command's options, its messages printed; refers to `options`.
inline conversion::Job disk_job(const mshconv::ConvertOptions& options) {
    return {options, mshconv::disk(), print_message};
}

} // namespace msh::cli
