// FunctionRegistry: added functions join the built-in table, are found by slot like built-in
// ones, call their CustomFunction through the generic kernels, and bad additions are refused.

#include <gtest/gtest.h>

#include "src/semantic/function_registry.h"
#include "src/semantic/kernels.h"

namespace parallax::semantic {
namespace {

CustomFunction Compose(const std::string& name) {
  CustomFunction f;
  f.name = name;
  f.kind = "compose";
  f.info = "none";
  f.origin = "test";
  f.params = {{"k", {3}}};
  f.compose = [](size_t n, const double* v, const uint64_t* b, const uint64_t* e, const FunctionParams& p,
                 double* out) {
    for (size_t i = 0; i < n; ++i) out[i] = v[i] * p[0][0] + static_cast<double>(e[i] - b[i]);
  };
  return f;
}

TEST(FunctionRegistry, AddedComposeIsFoundAndCalled) {
  FunctionRegistry reg;
  ASSERT_TRUE(reg.Add(Compose("Times k plus duration")).ok());
  const FunctionDesc* d = reg.Find("Times k plus duration", Slot::kComposeTask);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(reg.Find("Times k plus duration", Slot::kThread), nullptr);  // not a thread function
  EXPECT_EQ(d->group, FunctionGroup::kCompose);
  EXPECT_EQ(d->origin, "test");
  ASSERT_EQ(d->params.size(), 1u);
  EXPECT_EQ(d->params[0].name, "k");
  WindowEnv env;
  ComposeState state;
  Params params = {{2}};
  ComposeCall c{env, params, state, 5, 10, 14, d->custom};
  EXPECT_EQ(d->compose(c), 5 * 2 + 4);
  // built-in functions first, added ones last
  auto all = reg.All();
  EXPECT_EQ(all.size(), FunctionTable().size() + 1);
  EXPECT_EQ(all.back(), d);
  // the built-in registry does not see it
  EXPECT_EQ(FunctionRegistry::Builtin().FindAnyGroup("Times k plus duration"), nullptr);
}

TEST(FunctionRegistry, CopiesShareNothingMutable) {
  FunctionRegistry a;
  ASSERT_TRUE(a.Add(Compose("F1")).ok());
  FunctionRegistry b = a;
  ASSERT_TRUE(b.Add(Compose("F2")).ok());
  EXPECT_NE(a.FindAnyGroup("F1"), nullptr);
  EXPECT_EQ(a.FindAnyGroup("F2"), nullptr);
  EXPECT_EQ(b.FindAnyGroup("F1"), a.FindAnyGroup("F1"));  // the same descriptor, shared read-only
}

TEST(FunctionRegistry, RefusesBadAdditions) {
  FunctionRegistry reg;
  ASSERT_TRUE(reg.Add(Compose("Mine")).ok());
  auto message = [&](CustomFunction f) { return reg.Add(std::move(f)).message(); };
  EXPECT_EQ(message(Compose("As Is")), "cannot add function 'As Is' (from test): a built-in function has this name");
  EXPECT_EQ(message(Compose("Mine")), "cannot add function 'Mine' (from test): a function of test already has this name");
  EXPECT_NE(message(Compose("a, b")).find("cannot contain braces, commas"), std::string::npos);
  EXPECT_NE(message(Compose(" lead")).find("nor start or end with a space"), std::string::npos);
  EXPECT_NE(message(Compose("")).find("the name is empty"), std::string::npos);
  CustomFunction f = Compose("No kernel");
  f.compose = nullptr;
  EXPECT_NE(message(f).find("needs a compose kernel"), std::string::npos);
  f = Compose("Bad kind");
  f.kind = "aggregation";
  EXPECT_NE(message(f).find("unknown kind 'aggregation'"), std::string::npos);
  f = Compose("Bad info");
  f.info = "colour";
  EXPECT_NE(message(f).find("unknown info type 'colour'"), std::string::npos);
  f = Compose("Many params");
  f.params.assign(kMaxFunctionParams + 1, {"p", {}});
  EXPECT_NE(message(f).find("17 parameters (at most 16)"), std::string::npos);
  f = Compose("Thread");
  f.kind = "thread";
  f.thread = [](size_t, const FunctionRecord*, const double*, const FunctionParams&, double*) {};
  f.records = 16;
  EXPECT_NE(message(f).find("records mask 16"), std::string::npos);
  f.records = kRecordEvents | kRecordStates;
  EXPECT_TRUE(reg.Add(f).ok());
  const FunctionDesc* d = reg.Find("Thread", Slot::kThread);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->group, FunctionGroup::kEvent);
  EXPECT_EQ(d->valid, kValidEvents | kValidStates);
}

}  // namespace
}  // namespace parallax::semantic
