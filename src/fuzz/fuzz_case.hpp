#pragma once
// Randomized differential testing: one random problem (a "case"), its
// generator, its one-line text form, and the tally of what ran. Plain C++ (no
// Kokkos): the runner (fuzz_run.hpp) executes a case on a space and checks it
// against the host reference (fuzz_reference.hpp). Shared by the ctest
// (tests/test_fuzz.cpp) and the tool (`tilekit fuzz`).
//
// A case line looks like
//   op=permute variant=fused type=float layout=left shape=3,0,5 perm=2,0,1 alpha=2 beta=-0 seed=0x9e3779b97f4a7c15
// and `tilekit fuzz --replay "<line>"` runs exactly that case again.
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tilekit::fuzz {

enum class Op { transpose, inplace, permute, reduce };
/// Element types: every type the move kernels are tested with, and the
/// reduce family's four. The move-only ones (uint8, uint16: the library's
/// kernels of 1- and 2-byte elements) are moved: permute cases of them take
/// alpha = 1, beta = 0 and the library's variants (fused, naive).
enum class Type { int32, int64, float32, float64, cfloat32, cfloat64, uint8, uint16 };
/// uint8, uint16.
bool move_only(Type t);

struct Case {
  Op op = Op::permute;
  std::string variant;              ///< a variant name of the op (to_string of its enum)
  Type type = Type::float32;
  bool left = false;                ///< LayoutLeft (else LayoutRight)
  std::vector<std::int64_t> shape;  ///< input extents
  std::vector<int> perm;            ///< permute only
  double alpha = 1, beta = 0;       ///< permute only
  std::uint64_t seed = 0;           ///< data seed (and the seed the case was drawn from)

  std::int64_t elements() const;
};

/// The case as one line (format above), and back. parse() throws
/// std::invalid_argument naming the field that is wrong.
std::string format(const Case& c);
Case parse(const std::string& line);

struct Limits {
  std::int64_t max_elements = 1 << 14;        ///< typical cases stay below this ...
  std::int64_t large_elements = 1 << 20;      ///< ... and one in `large_every` below this
  int large_every = 64;
};

/// Case i of the run with master seed `seed`: a pure function of (seed, i).
Case generate(std::uint64_t seed, std::uint64_t i, const Limits& lim = {});
/// The case drawn from one seed.
Case generate_from(std::uint64_t case_seed, const Limits& lim = {});

/// Counts of what ran, by category ("op", "type", "layout", "rank", "method",
/// "alpha/beta", "extents"); a category whose values do not all appear means
/// the generator degenerated.
struct Tally {
  std::map<std::string, std::map<std::string, std::int64_t>> counts;
  std::int64_t cases = 0, failures = 0, elements = 0;
  std::int64_t skipped = 0;  ///< cases of a type the program does not compile (not run)
  void add(const std::string& category, const std::string& value) { ++counts[category][value]; }
  void add_case(const Case& c, const std::string& method);
  void merge(const Tally& other);
  std::string str() const;
};

std::string to_string(Op op);
std::string to_string(Type t);
std::size_t size_of(Type t);

/// The variant names of an op (in the library's order).
const std::vector<std::string>& variants(Op op);
/// Element types an op supports.
const std::vector<Type>& types(Op op);
/// Every (category, value) a long enough run must have seen (for the checks
/// against degeneration); methods are per space, so not in it.
std::vector<std::pair<std::string, std::string>> expected_coverage();

/// 64-bit mixer (splitmix64).
std::uint64_t mix(std::uint64_t x);

}  // namespace tilekit::fuzz
