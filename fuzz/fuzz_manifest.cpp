// The `_nres.json` manifest of an unpacked archive (nres pack, batch --to nres): the JSON edge
// (nesting bounded), the manifest reader, and the archive it describes written out — with empty
// payloads, as before the payload files are read.
#include "harness.hpp"

#include "conversion/nres_manifest.hpp"
#include "formats/nres.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] {
        const conversion::manifest::Manifest manifest(fuzz::view(data, size), "fuzz");
        nres::Archive ar = conversion::manifest::parse(manifest);
        // What the manifest accepted must be writable as an archive (or refused as a format
        // error), whatever its layout says.
        nres::write(ar);
    });
    return 0;
}
