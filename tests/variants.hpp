#pragma once
// The variants the tests run, one list per family: the library's and the
// seeds' teaching kernels (tilekit::study) side by side, each called through
// its own plan.
#include <tilekit/study.hpp>
#include <tilekit/tilekit.hpp>

#include <string>
#include <variant>
#include <vector>

namespace tilekit::test {

/// Seed 002's naive out-of-place transpose (study::NaiveTransposePlan).
struct NaiveTranspose {};
using TransposeRun = std::variant<NaiveTranspose, TransposeVariant>;
inline const TransposeRun kTransposeRuns[] = {NaiveTranspose{}, TransposeVariant::tiled,
                                             TransposeVariant::tiled_padded};

/// Seed 000's naive in-place swap (study::NaiveInplaceTransposePlan, square).
struct NaiveInplace {};
using InplaceRun = std::variant<NaiveInplace, InplaceVariant>;
inline const InplaceRun kSquareInplaceRuns[] = {NaiveInplace{}, InplaceVariant::blocked};

/// The library's permute variants and seed 003's rank-3 kernels (study::Permute3Plan).
using PermuteRun = std::variant<PermuteVariant, study::Permute3Variant>;
inline const PermuteRun kPermuteRuns[] = {
    PermuteVariant::fused,           PermuteVariant::naive,
    study::Permute3Variant::simple,  study::Permute3Variant::simple_templated,
    study::Permute3Variant::shared,  study::Permute3Variant::shared_templated,
    study::Permute3Variant::shared_bank_free};

inline std::string name_of(const TransposeRun& v) {
  return std::holds_alternative<NaiveTranspose>(v)
             ? "naive"
             : std::string(to_string(std::get<TransposeVariant>(v)));
}
inline std::string name_of(const InplaceRun& v) {
  return std::holds_alternative<NaiveInplace>(v)
             ? "inplace_naive"
             : std::string(to_string(std::get<InplaceVariant>(v)));
}
inline std::string name_of(const PermuteRun& v) {
  return std::visit([](auto x) { return std::string(to_string(x)); }, v);
}
/// A seed kernel: rank-3 contiguous views of one type only.
inline bool is_seed(const PermuteRun& v) {
  return std::holds_alternative<study::Permute3Variant>(v);
}

/// out = in^T by v (options: the library's variants only).
template <class Exec, class In, class Out>
void transpose_with(const TransposeRun& v, const Exec& exec, const In& in, const Out& out,
                    const TransposeOptions& o = {}) {
  if (std::holds_alternative<NaiveTranspose>(v))
    study::NaiveTransposePlan(exec, in, out).execute(in, out);
  else
    transpose(exec, in, out, std::get<TransposeVariant>(v), o);
}

/// a = a^T in place by v (options: the library's variants only).
template <class Exec, class View>
void transpose_inplace_with(const InplaceRun& v, const Exec& exec, const View& a,
                            const TransposeOptions& o = {}) {
  if (std::holds_alternative<NaiveInplace>(v))
    study::NaiveInplaceTransposePlan(exec, a).execute(a);
  else
    transpose_inplace(exec, a, std::get<InplaceVariant>(v), o);
}

/// out = alpha * permute(in, perm) + beta * out by v.
template <class Exec, class In, class Out, class S>
void permute_with(const PermuteRun& v, const Exec& exec, const In& in, const Out& out,
                  const std::vector<int>& perm, const S& alpha, const S& beta,
                  const PermuteOptions& o = {}) {
  if (const auto* seed = std::get_if<study::Permute3Variant>(&v))
    study::Permute3Plan(exec, in, out, perm, *seed, o).execute(in, out, alpha, beta);
  else
    PermutePlan(exec, in, out, perm, std::get<PermuteVariant>(v), o).execute(in, out, alpha, beta);
}

}  // namespace tilekit::test
