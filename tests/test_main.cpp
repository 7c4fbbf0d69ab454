#define BOOST_TEST_MODULE mshconv
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <system_error>

// This process's scratch folder (test::scratch) is removed when the tests end: a run writes
// hundreds of megabytes there, and a developer's machine runs the suite many times a day.
struct RemoveScratchAtExit {
    ~RemoveScratchAtExit() {
        std::error_code ignored;
        std::filesystem::remove_all(msh::test::scratch_root(), ignored);
    }
};
BOOST_TEST_GLOBAL_FIXTURE(RemoveScratchAtExit);
