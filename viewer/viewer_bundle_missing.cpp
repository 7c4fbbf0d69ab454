// The library built without the viewer (no Node.js or no viewer/node_modules at configure time,
// CMakeLists.txt): no script, so `mshconv view` refuses and galleries are written without views.
#include "conversion/viewer_bundle.hpp"

namespace msh::conversion {

const std::string& viewer_bundle() {
    static const std::string none;
    return none;
}

std::string_view viewer_three_version() {
    return {};
}

} // namespace msh::conversion
