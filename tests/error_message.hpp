#pragma once
// What a rejected call says, for tests that check a message's wording.
#include <string>

namespace tilekit::test {

/// What the Error that f throws says ("no exception" when f returns).
template <class Error, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no exception";
}

}  // namespace tilekit::test
