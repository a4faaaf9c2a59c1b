#pragma once
// The execution spaces tilekit's own programs instantiate (TILEKIT_SPACES:
// cmake/TilekitSpaces.cmake defines TILEKIT_SPACE_<NAME>), in Kokkos' order,
// GPU last: as a type list, a loop, their names, and a macro for explicit
// instantiations. The one place that reads those definitions.
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <vector>

#include "support/types.hpp"

#if defined(TILEKIT_SPACE_SERIAL)
#define TILEKIT_IF_SPACE_SERIAL(x) x
#else
#define TILEKIT_IF_SPACE_SERIAL(x)
#endif
#if defined(TILEKIT_SPACE_OPENMP)
#define TILEKIT_IF_SPACE_OPENMP(x) x
#else
#define TILEKIT_IF_SPACE_OPENMP(x)
#endif
#if defined(TILEKIT_SPACE_CUDA)
#define TILEKIT_IF_SPACE_CUDA(x) x
#else
#define TILEKIT_IF_SPACE_CUDA(x)
#endif

/// M(Exec) for every space built: TILEKIT_FOR_EACH_SPACE(INSTANTIATE) with
/// #define INSTANTIATE(Exec) template void f(const Exec&);
#define TILEKIT_FOR_EACH_SPACE(M) \
  TILEKIT_IF_SPACE_SERIAL(M(Kokkos::Serial)) \
  TILEKIT_IF_SPACE_OPENMP(M(Kokkos::OpenMP)) \
  TILEKIT_IF_SPACE_CUDA(M(Kokkos::Cuda))

namespace tilekit::support {

#define TILEKIT_SPACE_TYPE(Exec) , Exec
namespace detail {
template <class, class... Es> struct SpaceList { using type = List<Es...>; };
}  // namespace detail
/// The spaces built, as a type list.
using Spaces = typename detail::SpaceList<void TILEKIT_FOR_EACH_SPACE(TILEKIT_SPACE_TYPE)>::type;
#undef TILEKIT_SPACE_TYPE

/// fn(std::type_identity<Exec>{}) for every space built (no instance made).
template <class Fn>
void for_each_space_type(Fn&& fn) {
#define TILEKIT_SPACE_CALL(Exec) fn(std::type_identity<Exec>{});
  TILEKIT_FOR_EACH_SPACE(TILEKIT_SPACE_CALL)
#undef TILEKIT_SPACE_CALL
}

/// fn(Exec()) for every space built.
template <class Fn>
void for_each_space(Fn&& fn) {
  for_each_space_type([&](auto t) { fn(typename decltype(t)::type()); });
}

template <class... Es>
std::vector<std::string> names_of(List<Es...>) {
  return {Es::name()...};
}
/// Kokkos' names of the spaces built (no instance made: Kokkos may not be
/// initialised yet).
inline std::vector<std::string> space_names() { return names_of(Spaces{}); }

}  // namespace tilekit::support
