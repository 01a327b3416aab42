// The request checks of apps/server/params.h on worked examples: UTF-8, Host, Origin, content
// type and file names (the fuzz target checks the same functions on generated input).

#include <gtest/gtest.h>

#include "apps/server/params.h"

namespace parallax::server {
namespace {

TEST(ServerParams, Utf8) {
  EXPECT_TRUE(ValidUtf8(""));
  EXPECT_TRUE(ValidUtf8("State As Is"));
  EXPECT_TRUE(ValidUtf8("\xc3\xa9t\xc3\xa9"));            // été
  EXPECT_TRUE(ValidUtf8("\xf0\x9f\x98\x80"));             // U+1F600
  EXPECT_TRUE(ValidUtf8("\xf4\x8f\xbf\xbf"));             // U+10FFFF
  EXPECT_FALSE(ValidUtf8("\xff"));                        // never in UTF-8
  EXPECT_FALSE(ValidUtf8("\xc3"));                        // cut short
  EXPECT_FALSE(ValidUtf8("\xc3\x28"));                    // not a continuation byte
  EXPECT_FALSE(ValidUtf8("\xc0\xaf"));                    // overlong '/'
  EXPECT_FALSE(ValidUtf8("\xe0\x80\xaf"));                // overlong '/'
  EXPECT_FALSE(ValidUtf8("\xed\xa0\x80"));                // a surrogate
  EXPECT_FALSE(ValidUtf8("\xf4\x90\x80\x80"));            // above U+10FFFF
  EXPECT_FALSE(ValidUtf8(std::string("ok\xe2\x82", 4)));  // cut short at the end
}

TEST(ServerParams, HostMustNameThisServerWithItsPort) {
  EXPECT_TRUE(HostAllowed("127.0.0.1:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(HostAllowed("localhost:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(HostAllowed("LOCALHOST:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(HostAllowed("[::1]:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(HostAllowed("localhost", "127.0.0.1", 80));
  EXPECT_FALSE(HostAllowed("localhost", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed("localhost:08080", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed("localhost:8081", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed("evil.example:8080", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed("127.0.0.1.nip.io:8080", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed(":8080", "127.0.0.1", 8080));
  EXPECT_FALSE(HostAllowed("", "127.0.0.1", 8080));
  // The address given to --host; with a wildcard, any IP literal but no other name.
  EXPECT_TRUE(HostAllowed("10.0.0.5:8080", "10.0.0.5", 8080));
  EXPECT_FALSE(HostAllowed("10.0.0.6:8080", "10.0.0.5", 8080));
  EXPECT_TRUE(HostAllowed("[fe80::1]:8080", "fe80::1", 8080));
  EXPECT_TRUE(HostAllowed("10.0.0.6:8080", "0.0.0.0", 8080));
  EXPECT_TRUE(HostAllowed("[2001:db8::7]:8080", "::", 8080));
  EXPECT_FALSE(HostAllowed("10.0.0.256:8080", "0.0.0.0", 8080));
  EXPECT_FALSE(HostAllowed("myhost.example:8080", "0.0.0.0", 8080));
}

TEST(ServerParams, OriginMustBeThisServer) {
  EXPECT_TRUE(SameOrigin("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(SameOrigin("HTTP://LocalHost:8080", "localhost:8080"));
  EXPECT_FALSE(SameOrigin("http://127.0.0.1:3000", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("https://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("http://localhost:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("null", "127.0.0.1:8080"));
}

TEST(ServerParams, JsonContentType) {
  EXPECT_TRUE(IsJsonContentType("application/json"));
  EXPECT_TRUE(IsJsonContentType("application/json; charset=utf-8"));
  EXPECT_TRUE(IsJsonContentType(" Application/JSON ;charset=UTF-8"));
  EXPECT_FALSE(IsJsonContentType("text/plain"));
  EXPECT_FALSE(IsJsonContentType("application/jsonp"));
  EXPECT_FALSE(IsJsonContentType("application/x-www-form-urlencoded"));
  EXPECT_FALSE(IsJsonContentType(""));
}

TEST(ServerParams, FileNames) {
  EXPECT_EQ(FileNameProblem("view.cfg"), "");
  EXPECT_EQ(FileNameProblem("\xc3\xa9t\xc3\xa9 2.cfg"), "");
  EXPECT_EQ(FileNameProblem(std::string(255, 'a')), "");
  EXPECT_NE(FileNameProblem(std::string(256, 'a')), "");
  EXPECT_NE(FileNameProblem(""), "");
  EXPECT_NE(FileNameProblem("a\nb.cfg"), "");
  EXPECT_NE(FileNameProblem("a\x7f.cfg"), "");
  EXPECT_NE(FileNameProblem("a/b.cfg"), "");
  EXPECT_NE(FileNameProblem("\xff.cfg"), "");
}

TEST(ServerParams, ParserMessagesAreShortAndUtf8) {
  try {
    Params::Body("{\"a\": \"" + std::string(100000, ' ') + "\n\"}");
    ADD_FAILURE() << "a control character in a JSON string was accepted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400);
    EXPECT_LT(e.message.size(), 400u);
    EXPECT_TRUE(ValidUtf8(e.message));
  }
  try {
    Params::Body("{\"a\": \"\xff\"}");
    ADD_FAILURE() << "invalid UTF-8 in a JSON string was accepted";
  } catch (const ApiError& e) {
    EXPECT_TRUE(ValidUtf8(e.message)) << e.message;
  }
}

// A body nested deeper than kMaxJsonDepth is refused before nlohmann-json builds it, with the
// byte where the nesting passes the limit; strings do not count.
TEST(ServerParams, DeepBodiesAreRefusedWithTheirPosition) {
  const std::string ok = "{\"a\":" + std::string(kMaxJsonDepth - 1, '[') + std::string(kMaxJsonDepth - 1, ']') + "}";
  EXPECT_NO_THROW(Params::Body(ok));
  EXPECT_NO_THROW(Params::Body("{\"a\":\"" + std::string(1000, '[') + "\"}"));
  try {
    Params::Body("{\"a\":" + std::string(200000, '[') + std::string(200000, ']') + "}");
    ADD_FAILURE() << "a body nested 200,000 levels was accepted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400);
    EXPECT_NE(e.message.find("more than 64 arrays or objects in one another (at byte 68)"), std::string::npos)
        << e.message;
  }
}

}  // namespace
}  // namespace parallax::server
