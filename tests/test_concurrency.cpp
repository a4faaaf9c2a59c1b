// Concurrency: plans executing at the same time on two instances of a space
// (two OpenMP partitions, two CUDA streams, two Serial instances) give the
// same results as alone; a transpose/permute plan may be shared by host
// threads (it holds nothing execute() writes); a reduce plan rejects a second
// thread inside execute() (it owns a workspace and a host result).
#include <tilekit/permute.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/transpose.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;

TILEKIT_TYPED_TEST_SUITE(Concurrency, tilekit::support::List<float>);

/// Whether two_instances<E>() can give two instances: an OpenMP pool of one
/// thread (OMP_NUM_THREADS=1) has no second partition (Kokkos aborts).
template <class E>
bool partitionable() {
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<E, Kokkos::OpenMP>) return E().concurrency() >= 2;
#endif
  return true;
}

/// Two instances of the space that can run at the same time.
template <class E>
std::vector<E> two_instances() {
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (std::is_same_v<E, Kokkos::Serial>)
    return {Kokkos::Serial(Kokkos::NewInstance()),
            Kokkos::Serial(Kokkos::NewInstance())};
#endif
  return Kokkos::Experimental::partition_space(E(), 1, 1);  // OpenMP: two partitions; Cuda: two streams
}

template <class E>
using V1 = Kokkos::View<float*, typename E::memory_space>;
template <class E>
using V2 = Kokkos::View<float**, typename E::memory_space>;
template <class E>
using V3 = Kokkos::View<float***, typename E::memory_space>;

template <class V>
void fill(const V& v, i64 salt) {
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.span(); ++k)
    h.data()[k] = static_cast<float>(value_of(static_cast<i64>(k) + salt) % 64);  // sums exact
  Kokkos::deep_copy(v, h);
}


template <class V>
i64 host_sum(const V& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  i64 s = 0;
  for (std::size_t k = 0; k < h.span(); ++k) s += static_cast<i64>(h.data()[k]);
  return s;
}

/// The work of one instance: a transpose, a permute and a sum, `reps` times.
template <class E>
struct Work {
  E exec;
  V2<E> a, at;
  V3<E> b, bp;
  V1<E> s;
  tilekit::TransposePlan<E, float> tp;
  tilekit::PermutePlan<E, float> pp;
  tilekit::ReducePlan<E, float, tilekit::Sum> rp;
  Kokkos::View<float, typename E::memory_space> result;
  Work(const E& e, i64 salt)
      : exec(e), a("a", 300 + salt, 517), at("at", 517, 300 + salt), b("b", 37, 64, 45 + salt),
        bp("bp", 64, 45 + salt, 37), s("s", 100003 + salt),
        tp(e, a, at), pp(e, b, bp, {1, 2, 0}), rp(e, s, tilekit::Sum{}), result("r") {
    fill(a, salt);
    fill(b, 3 * salt);
    fill(s, 5 * salt);
  }
  /// Enqueues everything on exec without waiting.
  void launch(int reps) {
    for (int r = 0; r < reps; ++r) {
      tp.execute(a, at);
      pp.execute(b, bp);
      rp.execute(s, result);
    }
  }
  void check() {
    exec.fence();
    EXPECT_EQ(wrong_permuted(a, at, {1, 0}), 0);
    EXPECT_EQ(wrong_permuted(b, bp, {1, 2, 0}), 0);
    float r = 0;
    Kokkos::deep_copy(r, result);
    EXPECT_EQ(static_cast<i64>(r), host_sum(s));
  }
};

TYPED_TEST(Concurrency, TwoInstancesAtOnceFromOneThread) {
  using E = typename TypeParam::exec;
  if (!partitionable<E>()) GTEST_SKIP() << "one thread: Kokkos cannot partition it in two";
  auto inst = two_instances<E>();
  ASSERT_EQ(inst.size(), 2u);
  Work<E> w0(inst[0], 0), w1(inst[1], 7);
  Kokkos::fence();
  w0.launch(5);  // asynchronous where the space is (two CUDA streams overlap)
  w1.launch(5);
  w0.check();
  w1.check();
}

TYPED_TEST(Concurrency, TwoInstancesFromTwoThreads) {
  using E = typename TypeParam::exec;
  if (!partitionable<E>()) GTEST_SKIP() << "one thread: Kokkos cannot partition it in two";
  auto inst = two_instances<E>();
  Work<E> w0(inst[0], 0), w1(inst[1], 7);
  Kokkos::fence();
  std::thread t0([&] { w0.launch(5); w0.exec.fence(); });
  std::thread t1([&] { w1.launch(5); w1.exec.fence(); });
  t0.join();
  t1.join();
  w0.check();
  w1.check();
}

/// A transpose or permute plan holds nothing execute() writes: two host
/// threads may execute one plan at once (Kokkos serialises their launches on
/// the plan's instance), each on its own views.
TYPED_TEST(Concurrency, OneTransposeOrPermutePlanSharedByTwoThreads) {
  using E = typename TypeParam::exec;
  E exec;
  V2<E> a0("a0", 123, 457), a1("a1", 123, 457), o0("o0", 457, 123), o1("o1", 457, 123);
  V3<E> b0("b0", 17, 40, 33), b1("b1", 17, 40, 33), p0("p0", 40, 33, 17), p1("p1", 40, 33, 17);
  fill(a0, 1);
  fill(a1, 2);
  fill(b0, 3);
  fill(b1, 4);
  tilekit::TransposePlan tp(exec, a0, o0);
  tilekit::PermutePlan pp(exec, b0, p0, {1, 2, 0});
  auto body = [&](const V2<E>& a, const V2<E>& o, const V3<E>& b, const V3<E>& p) {
    for (int r = 0; r < 20; ++r) {
      tp.execute(a, o);
      pp.execute(b, p);
    }
  };
  std::thread t0(body, a0, o0, b0, p0), t1(body, a1, o1, b1, p1);
  t0.join();
  t1.join();
  exec.fence();
  EXPECT_EQ(wrong_permuted(a0, o0, {1, 0}), 0);
  EXPECT_EQ(wrong_permuted(a1, o1, {1, 0}), 0);
  EXPECT_EQ(wrong_permuted(b0, p0, {1, 2, 0}), 0);
  EXPECT_EQ(wrong_permuted(b1, p1, {1, 2, 0}), 0);
}

/// A reduce plan used by two host threads at once: every call either returns
/// the right sum or throws tilekit::invalid_argument (never a wrong result).
TYPED_TEST(Concurrency, OneReducePlanRejectsASecondThread) {
  using E = typename TypeParam::exec;
  E exec;
  V1<E> s("s", 200003);
  fill(s, 11);
  const i64 want = host_sum(s);
  tilekit::ReducePlan plan(exec, s, tilekit::Sum{});
  std::atomic<i64> right{0}, wrong{0}, rejected{0};
  auto body = [&] {
    for (int r = 0; r < 200; ++r) {
      try {
        (static_cast<i64>(plan.execute(s)) == want ? right : wrong)++;
      } catch (const tilekit::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("another thread"), std::string::npos) << e.what();
        rejected++;
      }
    }
  };
  std::thread t0(body), t1(body);
  t0.join();
  t1.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(right + rejected, 400);
  EXPECT_GT(right.load(), 0);
}

TEST(ExclusiveUse, ASecondScopeThrowsUntilTheFirstEnds) {
  tilekit::impl::ExclusiveUse u;
  const auto copy = u;  // copies share the flag, like copies of a plan
  {
    tilekit::impl::ExclusiveUse::Scope first(u, "test");
    EXPECT_THROW(tilekit::impl::ExclusiveUse::Scope second(copy, "test"),
                 tilekit::invalid_argument);
  }
  EXPECT_NO_THROW(tilekit::impl::ExclusiveUse::Scope again(copy, "test"));
}

}  // namespace
