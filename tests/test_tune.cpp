// Measured launch shapes (tune.hpp): every candidate's result is the whole,
// correct transpose or permutation; the choice is the fastest trial that ran;
// a second call with the same problem comes from the process's wisdom; bad
// input throws before anything is written; a wisdom file saved and loaded
// back gives the same choices, and a file written for another device or
// version, or damaged, is ignored whole with a warning. (What is measured is
// not checked: no timed test.)
#include <tilekit/hardware.hpp>
#include <tilekit/tune.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(Tune, tilekit::support::MoveTypes);

/// Settings that measure every candidate once and ignore the wisdom.
tilekit::TuneSettings measured_once() {
  tilekit::TuneSettings s;
  s.use_cache = false;
  s.reps = 1;
  return s;
}

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
  const tilekit::TuneSettings fresh = measured_once();
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
  const tilekit::TuneSettings fresh = measured_once();
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

// ------------------------------------------------------------- wisdom

/// A wisdom file of this test (one space and type at a time), removed after.
struct WisdomFile {
  std::string path;
  explicit WisdomFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / ("tilekit-test-" + name + ".wisdom")).string()) {
    std::remove(path.c_str());
  }
  ~WisdomFile() { std::remove(path.c_str()); }
  std::vector<std::string> lines() const {
    std::ifstream f(path);
    std::vector<std::string> out;
    for (std::string l; std::getline(f, l);) out.push_back(l);
    return out;
  }
  void write(const std::vector<std::string>& lines) const {
    std::ofstream f(path, std::ios::trunc);
    for (const auto& l : lines) f << l << '\n';
  }
};

template <class E, class T>
std::string wisdom_name(const char* what) {
  return std::string(what) + "-" + E::name() + "-" + tilekit::impl::wisdom_type_name<T>();
}

/// A transpose and a permutation tuned afresh, saved; forgotten; loaded back:
/// both come from the wisdom with the saved launches and give correct results.
TYPED_TEST(Tune, WisdomSavedAndLoadedGivesTheSameChoices) {
  TILEKIT_CASE_TYPES(E, T);
  using M = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  using V = Kokkos::View<T***, Kokkos::LayoutLeft, typename E::memory_space>;
  M a("a", 37, 53), at("at", 53, 37);
  V b("b", 5, 33, 7), bt("bt", 7, 5, 33);
  const std::vector<int> perm{2, 0, 1};
  const auto ha = fill_matrix(a);
  auto hb = Kokkos::create_mirror_view(b);
  for (std::size_t k = 0; k < hb.span(); ++k) hb.data()[k] = static_cast<T>(value_of(k));
  Kokkos::deep_copy(b, hb);
  E exec;
  tilekit::forget_wisdom();
  const tilekit::TuneSettings fresh = measured_once();
  const auto t = tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled, {}, fresh);
  const auto p = tilekit::tune_permute(exec, b, bt, perm, {}, fresh);
  ASSERT_FALSE(t.from_cache);
  ASSERT_FALSE(p.from_cache);
  const WisdomFile file(wisdom_name<E, T>("roundtrip"));
  EXPECT_EQ(tilekit::save_wisdom(exec, file.path), 2);
  // The header (format, versions, device) and the two entries.
  const auto lines = file.lines();
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0], "tilekit-wisdom 1");
  EXPECT_EQ(lines[3], std::string("space ") + E::name());
  EXPECT_EQ(lines[4], "device " + tilekit::hardware_info(exec).device);
  EXPECT_EQ(lines[6], "entries 2");
  const std::string type = tilekit::impl::wisdom_type_name<T>();
  // The permutation's entry is its fused problem: LayoutLeft (5, 33, 7)
  // [2, 0, 1] is row-major (7, 33, 5) [1, 2, 0], fused (7, 165) [1, 0].
  EXPECT_EQ(std::count(lines.begin(), lines.end(),
                       "permute\t" + type + "\tfused\t(7, 165) [1, 0]\t" +
                           tilekit::impl::launch_text(tilekit::impl::launch_fields(p.best))),
            1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(),
                       "transpose\t" + type + "\ttiled\t37 x 53\t" +
                           tilekit::impl::launch_text(tilekit::impl::launch_fields(t.best))),
            1);

  tilekit::forget_wisdom();
  EXPECT_FALSE(tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled, {}, fresh)
                   .from_cache);
  tilekit::forget_wisdom();
  const auto loaded = tilekit::load_wisdom(exec, file.path);
  EXPECT_TRUE(loaded.found);
  EXPECT_EQ(loaded.entries, 2);
  EXPECT_EQ(loaded.warning, "");
  Kokkos::deep_copy(at, poison<T>());
  Kokkos::deep_copy(bt, poison<T>());
  const auto t2 = tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled);
  const auto p2 = tilekit::tune_permute(exec, b, bt, perm);
  EXPECT_TRUE(t2.from_cache);
  EXPECT_TRUE(p2.from_cache);
  EXPECT_TRUE(t2.trials.empty());
  EXPECT_EQ(tilekit::impl::launch_fields(t2.best), tilekit::impl::launch_fields(t.best));
  EXPECT_EQ(tilekit::impl::launch_fields(p2.best), tilekit::impl::launch_fields(p.best));
  // The loaded launches run and give the transpose and the permutation.
  tilekit::TransposePlan<E, T>(exec, a, at, tilekit::TransposeVariant::tiled, t2.best).execute(a, at);
  tilekit::PermutePlan<E, T>(exec, b, bt, perm, tilekit::PermuteVariant::fused, p2.best).execute(b, bt);
  exec.fence();
  auto hat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), at);
  long wrong = 0;
  for (int i = 0; i < 37; ++i)
    for (int j = 0; j < 53; ++j) wrong += hat(j, i) != ha(i, j);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(wrong_permuted(b, bt, perm), 0);
  // A missing file is no error and no warning.
  std::remove(file.path.c_str());
  const auto none = tilekit::load_wisdom(exec, file.path);
  EXPECT_FALSE(none.found);
  EXPECT_EQ(none.entries, 0);
  EXPECT_EQ(none.warning, "");
  tilekit::forget_wisdom();
}

/// A file saved here, then changed: written for another device, space or
/// concurrency, by another version or format, with an entry that does not
/// parse or a count that does not match. Each is ignored whole (none of its
/// entries is taken: the next tuning measures) with a warning naming why.
TYPED_TEST(Tune, WisdomOfAnotherDeviceOrVersionIsIgnored) {
  TILEKIT_CASE_TYPES(E, T);
  using M = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  M a("a", 29, 41), at("at", 41, 29);
  E exec;
  tilekit::forget_wisdom();
  const tilekit::TuneSettings fresh = measured_once();
  tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled_padded, {}, fresh);
  const WisdomFile file(wisdom_name<E, T>("ignored"));
  ASSERT_EQ(tilekit::save_wisdom(exec, file.path), 1);
  const auto good = file.lines();
  ASSERT_EQ(good.size(), 8u);
  auto changed = [&](std::size_t k, const std::string& line) {
    auto l = good;
    l[k] = line;
    return l;
  };
  const std::string entry = good[7];
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {changed(4, "device Another Device 9000"), "the device differs"},
      {changed(3, "space Elsewhere"), "the execution space differs"},
      {changed(5, "concurrency 999999"), "the concurrency differs"},
      {changed(1, "tilekit 0.0.0-other"), "the tilekit version differs"},
      {changed(2, "kokkos 1"), "the Kokkos version differs"},
      {changed(0, "tilekit-wisdom 2"), "its format differs"},
      {changed(7, entry + " 5"), "entry 1 does not parse"},
      {changed(7, entry.substr(0, entry.rfind('\t')) + "\t64 4 x 1"), "entry 1 does not parse"},
      {changed(7, entry.substr(0, entry.rfind('\t')) + "\t64 -4 32 1"), "entry 1 does not parse"},
      {changed(6, "entries 3"), "it holds 1 entries, its header says 3"},
      {std::vector<std::string>(good.begin(), good.begin() + 4), "it ends before its header does"}};
  for (const auto& [lines, why] : cases) {
    file.write(lines);
    tilekit::forget_wisdom();
    const auto r = tilekit::load_wisdom(exec, file.path);
    EXPECT_TRUE(r.found) << why;
    EXPECT_EQ(r.entries, 0) << why;
    EXPECT_NE(r.warning.find(why), std::string::npos) << r.warning;
    EXPECT_NE(r.warning.find(file.path), std::string::npos) << r.warning;
    EXPECT_FALSE(
        tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled_padded).from_cache)
        << why;
  }
  // The file as saved is taken.
  file.write(good);
  tilekit::forget_wisdom();
  EXPECT_EQ(tilekit::load_wisdom(exec, file.path).entries, 1);
  EXPECT_TRUE(tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled_padded).from_cache);
  tilekit::forget_wisdom();
}

/// An entry of a matching file is checked when first used: one the plan
/// refuses (a tile past the largest edge) is dropped and the problem
/// measured; what the process measured itself is not replaced by a file's.
TYPED_TEST(Tune, WisdomEntriesAreCheckedAndDoNotReplaceMeasurements) {
  TILEKIT_CASE_TYPES(E, T);
  using M = Kokkos::View<T**, Kokkos::LayoutRight, typename E::memory_space>;
  M a("a", 31, 45), at("at", 45, 31);
  const auto ha = fill_matrix(a);
  E exec;
  tilekit::forget_wisdom();
  const tilekit::TuneSettings fresh = measured_once();
  const auto t = tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled, {}, fresh);
  const WisdomFile file(wisdom_name<E, T>("checked"));
  ASSERT_EQ(tilekit::save_wisdom(exec, file.path), 1);
  auto lines = file.lines();
  ASSERT_EQ(lines.size(), 8u);
  const std::string head = lines[7].substr(0, lines[7].rfind('\t'));
  lines[7] = head + "\t4096 4 32 1";  // an edge above the plans' 1024
  file.write(lines);
  // Measured here: the file's entry is not taken over it.
  EXPECT_EQ(tilekit::load_wisdom(exec, file.path).entries, 0);
  const auto kept = tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled);
  EXPECT_TRUE(kept.from_cache);
  EXPECT_EQ(tilekit::impl::launch_fields(kept.best), tilekit::impl::launch_fields(t.best));
  // Taken into an empty wisdom, refused by the plan at first use: measured.
  tilekit::forget_wisdom();
  EXPECT_EQ(tilekit::load_wisdom(exec, file.path).entries, 1);
  Kokkos::deep_copy(at, poison<T>());
  const auto r = tilekit::tune_transpose(exec, a, at, tilekit::TransposeVariant::tiled);
  EXPECT_FALSE(r.from_cache);
  EXPECT_FALSE(r.trials.empty());
  EXPECT_NE(r.best.tile, 4096);
  auto hat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), at);
  long wrong = 0;
  for (int i = 0; i < 31; ++i)
    for (int j = 0; j < 45; ++j) wrong += hat(j, i) != ha(i, j);
  EXPECT_EQ(wrong, 0);
  // Saved again: the measured launch, not the refused one.
  EXPECT_EQ(tilekit::save_wisdom(exec, file.path), 1);
  EXPECT_EQ(file.lines()[7], head + "\t" +
                                 tilekit::impl::launch_text(tilekit::impl::launch_fields(r.best)));
  // A file that cannot be written throws.
  EXPECT_THROW(tilekit::save_wisdom(exec, "/nonexistent-dir/x.wisdom"), tilekit::invalid_argument);
  tilekit::forget_wisdom();
}

TEST(TuneWisdom, TypeNamesDoNotDependOnTheCompiler) {
  using tilekit::impl::wisdom_type_name;
  EXPECT_EQ(wisdom_type_name<float>(), "float32");
  EXPECT_EQ(wisdom_type_name<double>(), "float64");
  EXPECT_EQ(wisdom_type_name<std::int32_t>(), "int32");
  EXPECT_EQ(wisdom_type_name<std::uint8_t>(), "uint8");
  EXPECT_EQ(wisdom_type_name<Kokkos::complex<float>>(), "complex64");
  EXPECT_EQ(wisdom_type_name<Kokkos::complex<double>>(), "complex128");
  struct Three {
    char c[3];
  };
  EXPECT_EQ(wisdom_type_name<Three>(), "bytes3");
}

}  // namespace
