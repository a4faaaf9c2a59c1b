#pragma once
// The definitions of the production reduce plan's members that size and
// launch its kernels (tilekit::ReducePlan, declared in dispatch.hpp): the
// library's compiled instances (cmake/TilekitETI.cmake) and programs using a plan the
// library does not hold include them (impl/common/eti.hpp).
#include <tilekit/impl/reduce/dispatch.hpp>

namespace tilekit {

template <class ExecSpace, class T, class Op>
void ReducePlan<ExecSpace, T, Op>::init() {
  config_ = impl::resolve_reduce<ExecSpace>(where(), opts_);
  threads_ = config_.team_rows * config_.vector;
  groups_ = Kernel::groups_for(threads_);
  // Throws for a shape the space cannot launch (before anything queries it);
  // execute() skips the check.
  impl::team_policy(where(), exec_, Kernel{}, 1, impl::team_shape(config_),
                    Kernel::scratch_bytes(threads_, groups_));
  if (strided_)
    impl::team_policy(where(), exec_, StridedKernel{}, 1, impl::team_shape(config_),
                      Kernel::scratch_bytes(threads_, groups_));
  cap_ = impl::league_cap(exec_, config_, opts_.teams, config_.league_pct);
  if (opts_.split == ReduceSplit::interleaved && Kernel::Locate > 0)
    detail::fail(where(), "MinLoc and MaxLoc on this space take contiguous shares "
                          "(locate_rows), not an interleaved split");
  // The backend's split, but MinLoc/MaxLoc take contiguous shares unless
  // asked (interleaved, their doubles ran slower; floats the same).
  interleave_ = opts_.split == ReduceSplit::backend
                    ? config_.interleave && !Kernel::indexed
                    : opts_.split == ReduceSplit::interleaved;
  if constexpr (defaults.fit_league)
    if (opts_.teams == 0) {
      // The teams of the kernel this plan launches that fit at once (the
      // strided kernel's registers are its own: a cap of the contiguous
      // kernel's teams would run it in uneven waves).
      index_t fit = 0;
      if (strided_) fit = resident_teams(StridedKernel{});
      cap_ = std::min(cap_, fit > 0 ? fit : resident_teams(Kernel{}));
    }
  most_ = cap_;
  if (opts_.teams == 0 && config_.team_rounds > 0 && config_.league_waves > 1 &&
      Kernel::Ahead && interleave_ && !strided_)
    most_ = cap_ * config_.league_waves;
  if (most_ > std::numeric_limits<int>::max())
    detail::fail(where(), "teams " + std::to_string(most_) + " exceed 2^31 - 1");
  league_ = league_for(strided_ ? StridedKernel::rows_of(n_, threads_)
                                : Kernel::rows_of(n_, 0, threads_));
  label_ = opts_.label + "_" + std::string(op_name<Op>());
  const std::string& l = label_;
  partial_ = Kokkos::View<typename Kernel::acc_type*, Mem>(
      Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, l + " partials"), league_);
  counter_ = Kokkos::View<unsigned, Mem>(Kokkos::view_alloc(exec_, l + " ticket"));
  result_ = Kokkos::View<result_type, Mem>(Kokkos::view_alloc(exec_, l + " result"));
  host_result_ = Kokkos::View<result_type, Kokkos::HostSpace>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, l + " on host"));
}

template <class ExecSpace, class T, class Op>
void ReducePlan<ExecSpace, T, Op>::launch_any(const T* data, result_type* result) const {
  if (strided_) launch_strided(data, result);
  else launch(data, result);
}

template <class ExecSpace, class T, class Op>
auto ReducePlan<ExecSpace, T, Op>::execute_on_host(const T* data) const -> result_type {
  launch_any(data, result_.data());
  return impl::result_on_host(exec_, host_result_, result_);
}

template <class ExecSpace, class T, class Op>
template <class F>
impl::index_t ReducePlan<ExecSpace, T, Op>::resident_teams(const F& f) const {
  const index_t most = static_cast<index_t>(impl::team_rows_max(
                           exec_, f, config_.vector,
                           Kernel::scratch_bytes(threads_, groups_))) *
                       config_.vector;
  const index_t per_unit = std::max<index_t>(1, most / threads_);
  return per_unit * backends::Traits<ExecSpace>::compute_units(exec_);
}

template <class ExecSpace, class T, class Op>
template <class F>
void ReducePlan<ExecSpace, T, Op>::run(F f, const T* data, index_t head, index_t rows,
                                       result_type* result, const std::string& label) const {
  const index_t league = league_for(rows);
  f.data = data;
  f.n = n_;
  f.head = head;
  f.rows = rows;
  f.share = rows / league;
  f.extra = rows % league;
  f.threads = threads_;
  f.groups = groups_;
  f.partial = partial_.data();
  f.counter = counter_.data();
  f.result = result;
  Kokkos::TeamPolicy<ExecSpace> policy(exec_, static_cast<int>(league), config_.team_rows,
                                       config_.vector);
  policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(threads_, groups_)));
  Kokkos::parallel_for(label, policy, f);
}

template <class ExecSpace, class T, class Op>
void ReducePlan<ExecSpace, T, Op>::launch(const T* data, result_type* result) const {
  const index_t head = Kernel::head_of(data, n_);
  Kernel f{};
  f.interleave = interleave_;
  run(f, data, head, Kernel::rows_of(n_, head, threads_), result, label_);
}

template <class ExecSpace, class T, class Op>
void ReducePlan<ExecSpace, T, Op>::launch_strided(const T* data, result_type* result) const {
  StridedKernel f{};
  f.where = runs_;
  run(f, data, 0, StridedKernel::rows_of(n_, threads_), result, label_ + "_strided");
}

}  // namespace tilekit
