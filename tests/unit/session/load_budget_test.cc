// The load's memory budget (LoadOptions::memory_limit) covers what the trace-event JSON reader
// builds: its records and the DOM of otherData.parallax. A small file could otherwise take
// gigabytes (a 330 KB .json.gz of empty arrays inflates to a DOM about 30 times its text).

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/trace.h"
#include "tests/unit/scratch_folder.h"

namespace parallax {
namespace {

TEST(LoadBudget, JsonOtherDataIsWithinTheMemoryLimit) {
  test::ScratchFolder dir;
  std::string wide = R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}],)"
                     R"("otherData":{"parallax":[)";
  for (int i = 0; i < 400000; ++i) wide += "[],";
  wide += "[]]}}";
  const std::string path = dir.Write("wide.json", wide);
  LoadOptions o;
  o.memory_limit = 8 << 20;
  auto t = Trace::Open(path, o);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("does not fit in the memory budget"), std::string::npos)
      << t.status().ToString();
  EXPECT_NE(t.status().message().find("the budget is 8.0 MiB"), std::string::npos)
      << t.status().ToString();
  EXPECT_EQ(t.status().where().file, path);
  o.memory_limit = 1 << 30;
  EXPECT_TRUE(Trace::Open(path, o).ok());
}

}  // namespace
}  // namespace parallax
