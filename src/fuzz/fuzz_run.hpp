#pragma once
// Runs one fuzz case on an execution space and checks every output element
// against the host reference. Defined (and instantiated for every enabled
// space) in fuzz_move.cpp and fuzz_reduce.cpp, so the test and the tool share
// one compiled copy.
#include <Kokkos_Core.hpp>

#include <string>

#include "fuzz_case.hpp"

namespace tilekit::fuzz {

struct Outcome {
  bool ok = false;
  bool skipped = false;  ///< the case's type is not compiled into this program
  std::string method;    ///< what the plan launched (permute: method and box kind)
  std::string message;   ///< the first wrong element, or the exception, when !ok
};

/// The outcome of a case whose element type this program does not compile:
/// the tool's and the runner's types follow the library's (TILEKIT_ETI_TYPES,
/// support::built_case_v), and the generator draws every type, so that a
/// run's cases stay a function of (seed, index) whatever the build.
inline Outcome not_built(const Case& c) {
  Outcome o;
  o.ok = true;
  o.skipped = true;
  o.message = "type " + to_string(c.type) +
              " is not compiled into this program (the library's TILEKIT_ETI_TYPES)";
  return o;
}

template <class Exec> Outcome run_move(const Exec& exec, const Case& c);
template <class Exec> Outcome run_reduce(const Exec& exec, const Case& c);

template <class Exec>
Outcome run(const Exec& exec, const Case& c) {
  return c.op == Op::reduce ? run_reduce(exec, c) : run_move(exec, c);
}

/// Runs cases [first, first + count) of the run `seed` on exec, adding them to
/// tally; calls on_failure(line, outcome) for each failing case.
template <class Exec, class OnFailure>
void run_range(const Exec& exec, std::uint64_t seed, std::uint64_t first, std::uint64_t count,
               const Limits& lim, Tally& tally, OnFailure&& on_failure) {
  for (std::uint64_t i = first; i < first + count; ++i) {
    const Case c = generate(seed, i, lim);
    const Outcome o = run(exec, c);
    if (o.skipped) {
      tally.add("skipped", to_string(c.op) + ":" + to_string(c.type));
      ++tally.skipped;
      continue;
    }
    tally.add_case(c, o.method);
    if (!o.ok) {
      ++tally.failures;
      on_failure(format(c), o);
    }
  }
}

}  // namespace tilekit::fuzz
