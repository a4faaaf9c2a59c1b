// New outputs (tilekit/fresh_output.hpp): a View from new_output has the
// asked extents and takes a transpose whose every element is checked, small
// and past the 2 MiB huge-page granule; first_touch writes inside the range it
// is given only (every byte around it keeps its value).
#include <tilekit/fresh_output.hpp>
#include <tilekit/transpose.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(FreshOutput, tilekit::support::MoveTypes);

TYPED_TEST(FreshOutput, NewOutputTakesATransposeEveryElement) {
  TILEKIT_CASE_TYPES(E, T);
  // 1 x 1; odd sides; past 2 MiB of 4-byte elements with a ragged end (huge
  // pages advised for its interior, 4 KiB pages at both ends).
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{1, 1}, {97, 101}, {1031, 1029}}) {
    E exec;
    Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space> in("in", rows, cols);
    const auto hin = fill_matrix(in);
    auto out = tilekit::new_output<T**>(exec, "fresh", cols, rows);
    ASSERT_EQ(out.extent(0), static_cast<std::size_t>(cols));
    ASSERT_EQ(out.extent(1), static_cast<std::size_t>(rows));
    EXPECT_EQ(out.label(), "fresh");
    tilekit::TransposePlan plan(exec, in, out);
    plan.execute(in, out);
    exec.fence();
    EXPECT_EQ(wrong_permuted(hin, out, {1, 0}), 0) << rows << "x" << cols;
  }
}

TYPED_TEST(FreshOutput, FirstTouchWritesInsideItsRangeOnly) {
  using E = typename TypeParam::exec;  // bytes: the value type plays no part
  if constexpr (!Kokkos::SpaceAccessibility<E, Kokkos::HostSpace>::accessible) {
    GTEST_SKIP() << "first_touch takes host memory";
  } else {
    // Ranges that start and end inside pages, on page boundaries, within
    // one page, and over a whole 2 MiB granule, of a buffer poisoned with 0xA5.
    const std::size_t page = tilekit::first_touch_page, huge = tilekit::backends::host_huge_page;
    std::vector<unsigned char> buf(3 * huge + 3 * page);
    for (auto [begin, length] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 3 * page}, {page, 2 * page}, {100, 50}, {page - 1, 2}, {7, huge + 2 * page + 3},
             {0, 3 * huge + 3 * page}, {5, 0}}) {
      std::fill(buf.begin(), buf.end(), static_cast<unsigned char>(0xA5));
      tilekit::first_touch(E(), buf.data() + begin, length);
      std::size_t outside = 0, inside_written = 0;
      for (std::size_t k = 0; k < buf.size(); ++k) {
        const bool in_range = k >= begin && k < begin + length;
        if (!in_range && buf[k] != 0xA5) ++outside;
        if (in_range && buf[k] == 0) ++inside_written;
      }
      EXPECT_EQ(outside, 0u) << "range " << begin << " + " << length;
      // One write per page the range meets (its first byte in that page).
      const std::size_t pages =
          length == 0 ? 0
                      : ((reinterpret_cast<std::uintptr_t>(buf.data()) + begin + length - 1) / page -
                         (reinterpret_cast<std::uintptr_t>(buf.data()) + begin) / page + 1);
      EXPECT_EQ(inside_written, pages) << "range " << begin << " + " << length;
    }
  }
}

}  // namespace
