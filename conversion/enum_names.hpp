// The public enums' names, one table each: to_string() reads them, and the command line and the
// reports parse through them, so a name is spelled in one place.
#pragma once

#include <mshconv/batch.hpp>
#include <mshconv/convert.hpp>
#include <mshconv/inspect.hpp>
#include <mshconv/preview.hpp>
#include <mshconv/survey.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace msh::conversion {

template <class E> using NameTable = std::pair<E, const char*>;

inline constexpr NameTable<mshconv::AssetKind> kAssetKindNames[] = {
    {mshconv::AssetKind::Model, "model"},
    {mshconv::AssetKind::Terrain, "terrain"},
    {mshconv::AssetKind::Texture, "texture"},
    {mshconv::AssetKind::Level, "level"}};
inline constexpr NameTable<mshconv::InfoKind> kInfoKindNames[] = {
    {mshconv::InfoKind::Archive, "archive"},  {mshconv::InfoKind::Model, "model"},
    {mshconv::InfoKind::Terrain, "terrain"},  {mshconv::InfoKind::ArealMap, "areal_map"},
    {mshconv::InfoKind::Texture, "texture"},  {mshconv::InfoKind::Wear, "wear"},
    {mshconv::InfoKind::Mission, "mission"},  {mshconv::InfoKind::Assembly, "assembly"},
    {mshconv::InfoKind::Registry, "registry"}};
inline constexpr NameTable<mshconv::PreviewKind> kPreviewKindNames[] = {
    {mshconv::PreviewKind::Model, "model"},
    {mshconv::PreviewKind::Map, "map"},
    {mshconv::PreviewKind::Texture, "texture"},
    {mshconv::PreviewKind::Scene, "scene"},
    {mshconv::PreviewKind::Level, "level"}};
inline constexpr NameTable<mshconv::PreviewView> kPreviewViewNames[] = {
    {mshconv::PreviewView::Default, "default"}, {mshconv::PreviewView::Iso, "iso"},
    {mshconv::PreviewView::Front, "front"},     {mshconv::PreviewView::Back, "back"},
    {mshconv::PreviewView::Left, "left"},       {mshconv::PreviewView::Right, "right"},
    {mshconv::PreviewView::Top, "top"},         {mshconv::PreviewView::Grid, "grid"}};
inline constexpr NameTable<mshconv::OverlayStyle> kOverlayStyleNames[] = {
    {mshconv::OverlayStyle::None, "none"},
    {mshconv::OverlayStyle::Outline, "outline"},
    {mshconv::OverlayStyle::Fill, "fill"}};
inline constexpr NameTable<mshconv::SurveyVerdict> kSurveyVerdictNames[] = {
    {mshconv::SurveyVerdict::Supported, "supported"},
    {mshconv::SurveyVerdict::Mixed, "mixed"},
    {mshconv::SurveyVerdict::Undecided, "undecided"}};
inline constexpr NameTable<mshconv::ItemKind> kItemKindNames[] = {
    {mshconv::ItemKind::Model, "model"},     {mshconv::ItemKind::Map, "map"},
    {mshconv::ItemKind::Texture, "texture"}, {mshconv::ItemKind::Archive, "archive"},
    {mshconv::ItemKind::Raw, "raw"},         {mshconv::ItemKind::Other, "other"},
    {mshconv::ItemKind::Level, "level"}};
inline constexpr NameTable<mshconv::BatchFormat> kBatchFormatNames[] = {
    {mshconv::BatchFormat::Glb, "glb"},   {mshconv::BatchFormat::Gltf, "gltf"},
    {mshconv::BatchFormat::Obj, "obj"},   {mshconv::BatchFormat::Png, "png"},
    {mshconv::BatchFormat::Nres, "nres"}, {mshconv::BatchFormat::Preview, "preview"}};

// The name of `value` in `table` (every enumerator has one).
template <class E, std::size_t N>
constexpr const char* name_of(const NameTable<E> (&table)[N], E value) {
    for (const auto& [e, name] : table)
        if (e == value) return name;
    return "";
}

// The enumerator `name` stands for, if any.
template <class E, std::size_t N>
constexpr std::optional<E> named(const NameTable<E> (&table)[N], std::string_view name) {
    for (const auto& [e, n] : table)
        if (name == n) return e;
    return std::nullopt;
}

} // namespace msh::conversion
