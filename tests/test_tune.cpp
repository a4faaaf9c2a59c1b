// Measured launch shapes (tune.hpp): every candidate's result is the whole,
// correct transpose or permutation; the choice is the fastest trial that ran;
// a second call with the same problem comes from the cache; bad input throws
// before anything is written. (What is measured is not checked: no timed test.)
#include <tilekit/tune.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(Tune, tilekit::support::MoveTypes);

template <class Result>
void expect_fastest_of_trials(const Result& r) {
  ASSERT_FALSE(r.from_cache);
  ASSERT_FALSE(r.trials.empty());
  const typename Result::Trial* win = nullptr;
  for (const auto& t : r.trials)
    if (t.problem.empty() && (!win || t.ms < win->ms)) win = &t;
  ASSERT_NE(win, nullptr);
  EXPECT_EQ(r.best_ms, win->ms);
  EXPECT_EQ(r.best.tile, win->options.tile);
  EXPECT_EQ(r.best.team_rows, win->options.team_rows);
  EXPECT_EQ(r.best.vector, win->options.vector);
}

template <class Exec, class T>
void check_transpose(int rows, int cols, tilekit::TransposeVariant v) {
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
  View in("in", rows, cols), out("out", cols, rows);
  const auto hin = fill_matrix(in);
  auto check = [&](const char* what) {
    auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    long wrong = 0;
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) wrong += hout(j, i) != hin(i, j);
    EXPECT_EQ(wrong, 0) << what << " " << rows << "x" << cols << " " << tilekit::to_string(v);
  };
  Exec exec;
  Kokkos::deep_copy(out, poison<T>());
  tilekit::TuneSettings fresh;
  fresh.use_cache = false;
  fresh.reps = 1;
  const auto r = tilekit::tune_transpose(exec, in, out, v, {}, fresh);
  exec.fence();
  check("tuned");
  expect_fastest_of_trials(r);
  // The plan's own choice (the defaults), then every candidate.
  EXPECT_EQ(r.trials.size(),
            tilekit::backends::Traits<Exec>::transpose_candidates(sizeof(T)).size() + 1);
  EXPECT_EQ(r.trials.front().options.tile, 0);
  // No launch is timed twice: the trials that ran resolve to distinct shapes.
  std::vector<std::array<int, 5>> ran;
  for (const auto& t : r.trials) {
    if (!t.problem.empty()) continue;
    const auto c = tilekit::TransposePlan<Exec, T>(exec, in, out, v, t.options).config();
    const std::array<int, 5> shape{c.tile, c.team_rows, c.vector, c.pad, c.tiles_per_team};
    EXPECT_EQ(std::count(ran.begin(), ran.end(), shape), 0) << "tile " << c.tile;
    ran.push_back(shape);
  }

  const auto again = tilekit::tune_transpose(exec, in, out, v);
  EXPECT_TRUE(again.from_cache);
  EXPECT_TRUE(again.trials.empty());
  EXPECT_EQ(again.best.tile, r.best.tile);
  EXPECT_EQ(again.best.team_rows, r.best.team_rows);

  Kokkos::deep_copy(out, poison<T>());
  tilekit::TransposePlan plan(exec, in, out, v, again.best);
  plan.execute(in, out);
  exec.fence();
  check("plan with the tuned options");
}

TYPED_TEST(Tune, TransposeEveryCandidateGivesTheTranspose) {
  TILEKIT_CASE_TYPES(E, T);
  for (auto v : {tilekit::TransposeVariant::tiled, tilekit::TransposeVariant::tiled_padded})
    for (auto [r, c] : {std::array{97, 101}, {1, 257}, {257, 1}, {130, 67}})
      check_transpose<E, T>(r, c, v);
}

/// out = permute(in, perm) of a LayoutRight rank-4 tensor against a host loop.
template <class Exec, class T>
void check_permute(std::array<int, 4> ext, std::vector<int> perm) {
  using View = Kokkos::View<T****, Kokkos::LayoutRight, typename Exec::memory_space>;
  View in("in", ext[0], ext[1], ext[2], ext[3]);
  View out("out", ext[perm[0]], ext[perm[1]], ext[perm[2]], ext[perm[3]]);
  auto hin = Kokkos::create_mirror_view(in);
  for (std::size_t k = 0; k < hin.span(); ++k) hin.data()[k] = static_cast<T>(value_of(k));
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(out, poison<T>());
  Exec exec;
  tilekit::TuneSettings fresh;
  fresh.use_cache = false;
  fresh.reps = 1;
  const auto r = tilekit::tune_permute(exec, in, out, perm, {}, fresh);
  exec.fence();
  expect_fastest_of_trials(r);
  // A trial is left unrun only where an earlier one launches the same: the
  // same resolved shape, tiles a team, method and team (a wide box doubles
  // the latter); trials that ran launch distinct ones.
  using Plan = tilekit::PermutePlan<Exec, T>;
  auto launch = [&](const tilekit::PermuteOptions& o) {
    const Plan p(exec, in, out, perm, tilekit::PermuteVariant::fused, o);
    const auto c = p.config();
    return std::array<int, 7>{c.tile,           c.team_rows,         c.vector,
                              c.pad,            p.tiles_per_team(),  static_cast<int>(p.method()),
                              p.tiled_team_size()};
  };
  const std::string same = "the launch of trial ";
  std::vector<std::array<int, 7>> ran;
  for (const auto& t : r.trials) {
    if (t.problem.rfind(same, 0) == 0) {
      const auto k = std::stoul(t.problem.substr(same.size()));
      ASSERT_LT(k, r.trials.size());
      EXPECT_EQ(launch(t.options), launch(r.trials[k].options)) << t.problem;
    } else if (t.problem.empty()) {
      const auto l = launch(t.options);
      EXPECT_EQ(std::count(ran.begin(), ran.end(), l), 0) << "tile " << l[0] << " rows " << l[1];
      ran.push_back(l);
    }
  }
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  long wrong = 0;
  std::array<int, 4> i{}, j{};
  for (i[0] = 0; i[0] < ext[0]; ++i[0])
    for (i[1] = 0; i[1] < ext[1]; ++i[1])
      for (i[2] = 0; i[2] < ext[2]; ++i[2])
        for (i[3] = 0; i[3] < ext[3]; ++i[3]) {
          for (int k = 0; k < 4; ++k) j[k] = i[perm[k]];
          wrong += hout(j[0], j[1], j[2], j[3]) != hin(i[0], i[1], i[2], i[3]);
        }
  EXPECT_EQ(wrong, 0);
  EXPECT_TRUE(tilekit::tune_permute(exec, in, out, perm).from_cache);
}

TYPED_TEST(Tune, PermuteEveryCandidateGivesThePermutation) {
  TILEKIT_CASE_TYPES(E, T);
  check_permute<E, T>({5, 3, 17, 9}, {3, 1, 0, 2});
  check_permute<E, T>({2, 33, 7, 65}, {3, 2, 1, 0});
  check_permute<E, T>({1, 31, 1, 37}, {0, 3, 2, 1});
  // A short output dimension (9 x 16): Cuda's default launch takes the wide
  // box, a candidate of the same tile the default one.
  check_permute<E, T>({16, 9, 7, 64}, {3, 2, 1, 0});
}

TYPED_TEST(Tune, BadInputThrowsBeforeWriting) {
  TILEKIT_CASE_TYPES(E, T);
  using View = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  View in("in", 9, 7), out("out", 9, 7), good("good", 7, 9);
  Kokkos::deep_copy(out, poison<T>());
  Kokkos::deep_copy(good, poison<T>());
  E exec;
  EXPECT_THROW(tilekit::tune_transpose(exec, in, out), tilekit::invalid_argument);
  tilekit::TuneSettings none;
  none.reps = 0;
  none.use_cache = false;
  EXPECT_THROW(tilekit::tune_transpose(exec, in, good, tilekit::TransposeVariant::tiled, {}, none),
               tilekit::invalid_argument);
  EXPECT_THROW(tilekit::tune_permute(exec, in, good, {0, 0}), tilekit::invalid_argument);
  exec.fence();
  EXPECT_TRUE(still_poisoned(out));
  EXPECT_TRUE(still_poisoned(good));
}

}  // namespace
