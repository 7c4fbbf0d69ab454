#include "batch_progress.hpp"

namespace msh::cli {

const char* status_name(Status s) {
    switch (s) {
    case Status::Converted:
        return "converted";
    case Status::Failed:
        return "failed";
    case Status::Skipped:
        return "skipped";
    }
    return "";
}

} // namespace msh::cli
