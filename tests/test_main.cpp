#define BOOST_TEST_MODULE mshconv
#include <boost/test/unit_test.hpp>
