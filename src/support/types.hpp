#pragma once
// The value types tilekit's own programs run, as type lists, and their names
// (the tool's --dtype values, the tests' case names).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tilekit::support {

template <class... Ts> struct List {};

template <class... A, class... B>
List<A..., B...> cat(List<A...>, List<B...>);
template <class A, class B> using Cat = decltype(cat(A{}, B{}));

/// The moves' (transposes') real types, the reductions', the complex ones.
using MoveTypes = List<std::int32_t, float, double>;
using ReduceTypes = List<std::int32_t, std::int64_t, float, double>;
using ComplexTypes = List<Kokkos::complex<float>, Kokkos::complex<double>>;
/// The permute's: the moves' and the complex ones.
using PermuteTypes = Cat<MoveTypes, ComplexTypes>;

/// The element types of the moves, in the order the fuzzer's Type follows:
/// the arithmetic ones, then the move-only types the library compiles (one
/// per size of 1 and 2 bytes: the kernels move bits).
using ElementTypes = List<std::int32_t, std::int64_t, float, double, Kokkos::complex<float>,
                          Kokkos::complex<double>, std::uint8_t, std::uint16_t>;

/// fn(T{}) for the type at index k of the list L; k out of range throws
/// std::out_of_range.
template <class T, class... Ts, class Fn>
auto with_type_at(List<T, Ts...>, int k, Fn&& fn) {
  if constexpr (sizeof...(Ts) == 0) {
    if (k != 0) throw std::out_of_range("type index out of range");
    return fn(T{});
  } else {
    if (k == 0) return fn(T{});
    return with_type_at(List<Ts...>{}, k - 1, std::forward<Fn>(fn));
  }
}

/// "int32", "float", "cfloat", "half", ... ("other" for any other type). A
/// host-only Kokkos defines half_t and bhalf_t as float: they are "float".
template <class T>
constexpr std::string_view type_token() {
  using H = Kokkos::Experimental::half_t;
  using B = Kokkos::Experimental::bhalf_t;
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, H>) return "half";
  else if constexpr (std::is_same_v<T, B>) return "bhalf";
  else if constexpr (std::is_same_v<T, Kokkos::complex<float>>) return "cfloat";
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>) return "cdouble";
  else return "other";
}

template <class T>
std::string type_name() {
  return std::string(type_token<T>());
}

/// Whether an entry of the comma-separated `list` satisfies `match`.
template <class Match>
constexpr bool any_listed(std::string_view list, const Match& match) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    if (match(list.substr(0, comma))) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

/// Whether the program compiles its cases of element type T: the tool and the
/// fuzz runner compile only the types the library holds (TILEKIT_ETI_TYPES:
/// cmake/TilekitToolCases.cmake defines TILEKIT_TOOL_TYPES, their names), so
/// that they instantiate no kernel of their own; a program without
/// TILEKIT_TOOL_TYPES compiles every type.
template <class T>
constexpr bool built_case() {
#if defined(TILEKIT_TOOL_TYPES)
  return any_listed(TILEKIT_TOOL_TYPES, [](std::string_view t) { return t == type_token<T>(); });
#else
  return true;
#endif
}
template <class T> inline constexpr bool built_case_v = built_case<T>();

/// The same for the converting permute's pair In -> Out (conjugated where
/// Conj): its token "<in>_to_<out>" or "<in>_conj" in TILEKIT_TOOL_PAIRS (the
/// pairs of TILEKIT_ETI_CONVERSIONS among the library's types).
template <class In, class Out, bool Conj>
constexpr bool built_pair() {
#if defined(TILEKIT_TOOL_PAIRS)
  constexpr std::string_view in = type_token<In>(), out = type_token<Out>();
  return any_listed(TILEKIT_TOOL_PAIRS, [&](std::string_view t) {
    if (t.substr(0, in.size()) != in) return false;
    t.remove_prefix(in.size());
    return Conj ? t == "_conj" : t.substr(0, 4) == "_to_" && t.substr(4) == out;
  });
#else
  return true;
#endif
}

/// The names of the element types the program compiles ("int32,float,double"),
/// "" where it compiles every type.
inline std::string built_types() {
#if defined(TILEKIT_TOOL_TYPES)
  return TILEKIT_TOOL_TYPES;
#else
  return "";
#endif
}

}  // namespace tilekit::support
