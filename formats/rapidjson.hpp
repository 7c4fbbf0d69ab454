// The one place that includes RapidJSON (Debian rapidjson-dev), so that every reader parses with
// the same default flags: strict JSON (RFC 8259) with UTF-8 validated, numbers converted in full
// precision (the nearest double, as nlohmann and strtod give), and an iterative parser (no
// recursion per nesting level; json_nesting.hpp bounds the depth besides).
#pragma once

#ifndef RAPIDJSON_PARSE_DEFAULT_FLAGS
#define RAPIDJSON_PARSE_DEFAULT_FLAGS                                                              \
    (kParseValidateEncodingFlag | kParseFullPrecisionFlag | kParseIterativeFlag)
#endif

// What tinygltf includes itself without TINYGLTF_NO_INCLUDE_RAPIDJSON (its writer needs the
// writers and the string buffer).
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/rapidjson.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
