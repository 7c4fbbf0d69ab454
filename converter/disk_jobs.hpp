// The conversion jobs on the disk, for the commands that run them item by item (batch, preview,
// info, validate, nres, survey): addresses resolved and files read through mshconv::disk().
#pragma once

#include "convert_options.hpp"

#include "jobs/convert.hpp"

namespace msh::cli {

using jobs::Address;
using jobs::find_sibling_in;
using jobs::ImportChoices;
using jobs::Loaded;
using jobs::model_wear_name;
using jobs::ModelExportContext;
using jobs::new_member;
using jobs::Sibling;
using pipeline::lower_ascii;

inline Address parse_address(const std::string& spec) {
    return jobs::parse_address(mshconv::disk(), spec);
}
inline Loaded load(const Address& address) {
    return jobs::load(mshconv::disk(), address);
}
inline std::optional<Sibling> find_sibling(const Address& address, const std::string& leaf) {
    return jobs::find_sibling(mshconv::disk(), address, leaf);
}
inline bool same_path(const std::filesystem::path& a, const std::filesystem::path& b) {
    return mshconv::disk().same_file(a, b);
}

// A job on the disk with the command's options, its messages printed; refers to `options`.
inline jobs::Job disk_job(const mshconv::ConvertOptions& options) {
    return {options, mshconv::disk(), print_message};
}

} // namespace msh::cli
