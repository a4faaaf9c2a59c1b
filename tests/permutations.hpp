#pragma once
// Every permutation of 0..r-1, in lexicographic order: the tests that run a
// permute for each of them.
#include <algorithm>
#include <numeric>
#include <vector>

namespace tilekit::test {

inline std::vector<std::vector<int>> all_perms(int r) {
  std::vector<int> p(r);
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<int>> out;
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

}  // namespace tilekit::test
