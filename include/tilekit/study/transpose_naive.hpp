#pragma once
// The seeds' naive transposes, the baselines the tool and the study measure
// the library's against: out of place (seed 002), one element per work item
// over the whole matrix, reads along the input's rows and writes strided;
// in place (seed 000), one work item per (i, j) of a square matrix, those
// above the diagonal swapping. The views are checked as the library's plans
// check theirs (tilekit::TransposePlan, tilekit::InplaceTransposePlan).
//
//   tilekit::study::NaiveTransposePlan plan(exec, in, out);   plan.execute(in, out);
//   tilekit::study::NaiveInplaceTransposePlan sq(exec, a);     sq.execute(a);
#include <tilekit/transpose.hpp>

#include <string>

namespace tilekit::study {

/// Seed 000's swap: one work item per (i, j) of an n x n matrix; those above
/// the diagonal swap.
template <class T>
struct TransposeInplaceNaive {
  T* a;
  impl::index_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const impl::index_t i, const impl::index_t j) const {
    if (j > i) {
      const T x = a[i * n + j];
      a[i * n + j] = a[j * n + i];
      a[j * n + i] = x;
    }
  }
};

/// out = in^T element by element (impl::TransposeNaive over an MDRange), for
/// the views tilekit::TransposePlan takes; kernels labelled `label`_naive.
template <class ExecSpace, class T>
class NaiveTransposePlan {
 public:
  template <class InView, class OutView>
  NaiveTransposePlan(const ExecSpace& exec, const InView& in, const OutView& out,
                     std::string label = "tilekit::transpose")
      : exec_(exec), label_(std::move(label)), rows_(in.extent(0)), cols_(in.extent(1)) {
    impl::check_transpose<ExecSpace, T>(label_, in, out, rows_, cols_);
  }

  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) const {
    impl::check_transpose<ExecSpace, T>(label_, in, out, rows_, cols_);
    const impl::TransposeGeom g = impl::transpose_geom(in, out);
    if (g.m * g.n == 0) return;
    launch(in.data(), out.data(), g);
  }

 private:
  void launch(const T* in, T* out, const impl::TransposeGeom& g) const;

  ExecSpace exec_;
  std::string label_;
  std::size_t rows_, cols_;
};

template <class E, class I, class O>
NaiveTransposePlan(const E&, const I&, const O&)
    -> NaiveTransposePlan<E, typename O::non_const_value_type>;
template <class E, class I, class O>
NaiveTransposePlan(const E&, const I&, const O&, std::string)
    -> NaiveTransposePlan<E, typename O::non_const_value_type>;

/// a = a^T in place for a square matrix (TransposeInplaceNaive), for the
/// views tilekit::InplaceTransposePlan takes; a matrix that is not square
/// throws tilekit::invalid_argument (the library's plan takes any shape).
template <class ExecSpace, class T>
class NaiveInplaceTransposePlan {
 public:
  template <class View>
  NaiveInplaceTransposePlan(const ExecSpace& exec, const View& a,
                            std::string label = "tilekit::transpose_inplace")
      : exec_(exec), label_(std::move(label)), n_(a.extent(0)) {
    impl::check_inplace<ExecSpace, T>(label_, a, a.extent(0), a.extent(1));
    if (a.extent(0) != a.extent(1))
      detail::fail(label_, "the naive in-place transpose takes a square matrix, not extents " +
                               detail::extents_string(a));
  }

  template <class View>
  void execute(const View& a) const {
    impl::check_inplace<ExecSpace, T>(label_, a, n_, n_);
    if (n_ == 0) return;
    launch(a.data());
  }

 private:
  void launch(T* a) const;

  ExecSpace exec_;
  std::string label_;
  std::size_t n_;
};

// The launches, out of line: the library holds them for its pairs (extern
// declarations below; cmake/TilekitETI.cmake's study family), and a
// non-inline member of an `extern template` specialization is never
// instantiated in a program's unit (impl/common/eti.hpp).
template <class ExecSpace, class T>
void NaiveTransposePlan<ExecSpace, T>::launch(const T* in, T* out,
                                              const impl::TransposeGeom& g) const {
  using Policy =
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<impl::index_t>>;
  Kokkos::parallel_for(label_ + "_naive", Policy(exec_, {0, 0}, {g.m, g.n}),
                       impl::TransposeNaive<T>{in, out, g.si0, g.si1, g.so0, g.so1});
}

template <class ExecSpace, class T>
void NaiveInplaceTransposePlan<ExecSpace, T>::launch(T* a) const {
  const auto n = static_cast<impl::index_t>(n_);
  using Policy =
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<impl::index_t>>;
  Kokkos::parallel_for(label_ + "_naive", Policy(exec_, {0, 0}, {n, n}),
                       TransposeInplaceNaive<T>{a, n});
}

template <class E, class V>
NaiveInplaceTransposePlan(const E&, const V&) -> NaiveInplaceTransposePlan<E, typename V::value_type>;
template <class E, class V>
NaiveInplaceTransposePlan(const E&, const V&, std::string)
    -> NaiveInplaceTransposePlan<E, typename V::value_type>;

}  // namespace tilekit::study

// The library's compiled naive plans (impl/common/eti.hpp): every pair
// (study/definitions.hpp).
#define TILEKIT_ETI_STUDY_NAIVE(E, T)                                   \
  extern template class tilekit::study::NaiveTransposePlan<E, T>; \
  extern template class tilekit::study::NaiveInplaceTransposePlan<E, T>;
TILEKIT_ETI_FOR_EACH_PAIR(TILEKIT_ETI_STUDY_NAIVE)
#undef TILEKIT_ETI_STUDY_NAIVE
