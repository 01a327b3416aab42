// "Did you mean": edit distances and the closest names (src/base/closest.h), and the hints the
// public API gives for an unknown thread function and an unknown window.

#include <gtest/gtest.h>

#include "include/parallax/render.h"
#include "include/parallax/trace.h"
#include "src/base/closest.h"

namespace parallax {
namespace {

TEST(Closest, EditDistance) {
  EXPECT_EQ(base::EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(base::EditDistance("State As Is", "state as is"), 0u);  // case folded
  EXPECT_EQ(base::EditDistance("", "abc"), 3u);
  EXPECT_EQ(base::EditDistance("abc", ""), 3u);
}

TEST(Closest, NamesAndHint) {
  const std::vector<std::string> names = {"mpi-call", "mpi-profile", "states", "useful-ipc"};
  EXPECT_EQ(base::ClosestNames("mpi-profil", names), (std::vector<std::string>{"mpi-profile", "mpi-call"}));
  EXPECT_TRUE(base::ClosestNames("zzzzzzzzzzzzzzzzzz", names).empty());  // nothing close
  EXPECT_EQ(base::ClosestNames("zzzzzzzzzzzzzzzzzz", names, 1, true).size(), 1u);
  EXPECT_EQ(base::ClosestHint("state", names), "the closest: states");
  EXPECT_EQ(base::ClosestHint("qqqqqqqqqqqqqqqqqqqq", names), "");
}

TEST(Closest, UnknownFunctionsAndWindowsSayTheClosest) {
  auto t = Trace::Open(std::string(PARALLAX_TEST_DATA) + "/epoch/epoch_2proc.prv.gz");
  ASSERT_TRUE(t.ok());
  TimelineRequest r;
  r.thread_function = "State As I";
  auto img = RenderTimeline(*t.value(), r);
  ASSERT_FALSE(img.ok());
  EXPECT_EQ(img.status().message(), "unknown thread function 'State As I'");
  EXPECT_EQ(img.status().hint().rfind("the closest: State As Is", 0), 0u) << img.status().hint();
  TimelineRequest w;
  w.cfg_path = std::string(PARALLAX_TEST_DATA) + "/cfg/bsc/mpi/views/MPI_call.cfg";
  w.window = "MPI cal";
  img = RenderTimeline(*t.value(), w);
  ASSERT_FALSE(img.ok());
  EXPECT_EQ(img.status().hint(), "the cfg's windows: MPI call");
}

}  // namespace
}  // namespace parallax
