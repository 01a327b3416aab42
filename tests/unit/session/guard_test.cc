// The guard every public entry point runs its body through: no exception leaves the library.

#include "src/session/guard.h"

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace parallax::session {
namespace {

TEST(Guard, OutOfMemoryBecomesAnErrorNamingTheFile) {
  Result<int> r = Guarded("big.prv", []() -> Result<int> { throw std::bad_alloc(); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "out of memory");
  EXPECT_EQ(r.status().where().file, "big.prv");
  EXPECT_NE(r.status().hint().find("more memory"), std::string::npos);
}

TEST(Guard, OtherExceptionsBecomeInternalErrors) {
  Status s = Guarded("x.cfg", []() -> Status { throw std::out_of_range("basic_string::substr"); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "internal error: basic_string::substr");
  EXPECT_EQ(s.where().file, "x.cfg");
}

TEST(Guard, ResultsPassThrough) {
  Result<std::vector<int>> r =
      Guarded("t.prv", []() -> Result<std::vector<int>> { return std::vector<int>{1, 2}; });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), (std::vector<int>{1, 2}));
  Status s = Guarded("t.prv", [] { return Status::Error("bad", Location{"t.prv", 3, 1}, "fix it"); });
  EXPECT_EQ(s.where().line, 3u);
}

TEST(Guard, ALibraryThrowIsAStatus) {
  // An exception thrown by the standard library itself (not by hand) takes the same path.
  Result<size_t> r = Guarded("t.pcf", []() -> Result<size_t> {
    std::string empty;
    return empty.substr(1).size();  // throws std::out_of_range
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("internal error: basic_string::substr"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(r.status().where().file, "t.pcf");
}

}  // namespace
}  // namespace parallax::session
