// Argument errors of the distributed plans: raised as the same
// tilekit::invalid_argument on every rank, collectively, with every output
// still poisoned (nothing sent, nothing written), and no rank left waiting.
#include <gtest/gtest.h>

#include "dist_helpers.hpp"

namespace {

using namespace tilekit::test;
using namespace tilekit::test::dist;
using Exec = Kokkos::DefaultExecutionSpace;
using T = double;
using Plan = tilekit::dist::PermutePlan<Exec, T>;

/// The message every rank got, or "" where none was thrown.
template <class Fn>
std::string thrown(Fn&& fn) {
  try {
    fn();
  } catch (const tilekit::invalid_argument& e) {
    return e.what();
  }
  return "";
}

/// True on every rank when every rank threw the same non-empty message.
bool same_everywhere(const std::string& msg) {
  const int me = comm_rank();
  std::uint64_t len = msg.size(), lo = len, hi = len;
  MPI_Allreduce(&len, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&len, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (lo != hi || lo == 0) return false;
  std::string root = msg;
  MPI_Bcast(root.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = root == msg ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  (void)me;
  return same == 1;
}

const std::vector<index_t> kExt = {6, 5, 4};

TEST(DistErrors, ExtentsDifferBetweenRanks) {
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec);
  // The last rank believes the tensor is one row longer.
  const bool odd = comm_rank() == comm_size() - 1 && comm_size() > 1;
  const std::vector<index_t> e = odd ? std::vector<index_t>{7, 5, 4} : kExt;
  const auto din = Decomposition::slab(e, comm_size(), 0);
  const auto dout = Decomposition::slab({e[2], e[1], e[0]}, comm_size(), 0);
  const auto msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, test_engine()); });
  if (comm_size() > 1) {
    EXPECT_TRUE(same_everywhere(msg)) << msg;
    EXPECT_NE(msg.find("disagree"), std::string::npos) << msg;
  } else {
    EXPECT_EQ(msg, "");
  }
}

TEST(DistErrors, PermutationDiffersBetweenRanks) {
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec);
  const auto din = Decomposition::slab({6, 6, 6}, comm_size(), 0);
  const auto dout = Decomposition::slab({6, 6, 6}, comm_size(), 0);
  const std::vector<int> perm = comm_rank() == 0 ? std::vector<int>{1, 0, 2} : std::vector<int>{0, 2, 1};
  const auto msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, perm, test_engine()); });
  if (comm_size() > 1) {
    EXPECT_TRUE(same_everywhere(msg)) << msg;
  }
}

TEST(DistErrors, InvalidDescriptions) {
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec);
  const int P = comm_size();
  const auto din = Decomposition::slab(kExt, P, 0);
  const auto dout = Decomposition::slab({4, 5, 6}, P, 0);
  // Not a permutation.
  auto msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, {2, 2, 0}, test_engine()); });
  EXPECT_TRUE(same_everywhere(msg)) << msg;
  EXPECT_NE(msg.find("not a permutation"), std::string::npos) << msg;
  // Output extents are not the permuted input's.
  msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, {1, 0, 2}, test_engine()); });
  EXPECT_TRUE(same_everywhere(msg)) << msg;
  // A grid of another size than the communicator.
  const auto big = Decomposition::slab(kExt, P + 1, 0);
  msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, big, dout, {2, 1, 0}, test_engine()); });
  EXPECT_TRUE(same_everywhere(msg)) << msg;
  EXPECT_NE(msg.find("communicator"), std::string::npos) << msg;
  // A negative chunk count, or one differing between ranks.
  auto eo = test_engine();
  eo.chunks = -1;
  msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, eo); });
  EXPECT_TRUE(same_everywhere(msg)) << msg;
  EXPECT_NE(msg.find("chunks"), std::string::npos) << msg;
  if (P > 1) {
    eo.chunks = comm_rank() == 0 ? 2 : 3;
    msg = thrown([&] { Plan(Exec(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, eo); });
    EXPECT_TRUE(same_everywhere(msg)) << msg;
  }
  // The local constructor checks its own description.
  EXPECT_THROW(Decomposition(kExt, {P}, {3}), tilekit::invalid_argument);
  EXPECT_THROW(Decomposition(kExt, {P, 1}, {0, 0}), tilekit::invalid_argument);
}

/// One rank passes a view of the wrong extents at execute: every rank throws,
/// every output stays poisoned.
TEST(DistErrors, WrongBlockOnOneRankWritesNothing) {
  TILEKIT_DIST_SKIP_UNLESS_ENGINE_RUNS(Exec);
  const int P = comm_size();
  const auto din = Decomposition::slab(kExt, P, 0);
  const auto dout = Decomposition::slab({4, 5, 6}, P, 2);
  Plan plan(Exec(), MPI_COMM_WORLD, din, dout, {2, 1, 0}, test_engine());
  auto in = allocate<Exec, T, 3>("in", din);
  auto out = allocate<Exec, T, 3>("out", dout);
  fill_global_pattern(in, din);
  Kokkos::deep_copy(out, poison<T>());
  auto e = dout.local_extents(comm_rank());
  if (comm_rank() == P - 1) e[0] += 1;
  Block<Exec, T, 3> wrong("wrong", e[0], e[1], e[2]);
  Kokkos::deep_copy(wrong, poison<T>());
  const auto msg = thrown([&] {
    if (comm_rank() == P - 1) plan.execute(in, wrong);
    else plan.execute(in, out);
  });
  EXPECT_TRUE(same_everywhere(msg)) << msg;
  EXPECT_NE(msg.find("output block"), std::string::npos) << msg;
  EXPECT_TRUE(poisoned_everywhere(out));
  EXPECT_TRUE(poisoned_everywhere(wrong));
  // And the plan still works afterwards.
  plan.execute(in, out);
  Exec().fence();
  EXPECT_EQ(mismatches(in, din, out, dout, {2, 1, 0}), 0);
}

}  // namespace
