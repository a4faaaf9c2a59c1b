// `tilekit fuzz`: randomized differential testing (docs/reliability.md). Runs
// `--cases` random problems of the run `--seed` on each selected space, checks
// every element against the host reference, prints one reproducer line per
// failing case and the tally of what ran; `--replay "<line>"` runs one case.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "common.hpp"
#include "fuzz_run.hpp"
#include "subcommand.hpp"

// This file's names, in a namespace of their own: the command-line units
// compile as one (TILEKIT_TOOL_UNITY).
namespace tilekit::tool::fuzz_cmd {
namespace {

struct Options {
  std::string space = "default";
  std::uint64_t seed = 1;
  std::uint64_t cases = 1000;
  std::uint64_t first = 0;
  std::string replay;
  std::int64_t max_elements = fuzz::Limits{}.max_elements;
  std::int64_t large_elements = fuzz::Limits{}.large_elements;
  int max_failures = 20;
};

int run(const Options& o) {
  fuzz::Limits lim;
  lim.max_elements = o.max_elements;
  lim.large_elements = o.large_elements;
  if (!o.replay.empty()) {
    const fuzz::Case c = fuzz::parse(o.replay);  // throws with the field that is wrong
    int status = 0;
    for_each_space(o.space, [&](const auto& exec) {
      const auto out = fuzz::run(exec, c);
      if (out.skipped) {
        std::cout << exec.name() << ": skipped: " << out.message << '\n';
        return;
      }
      std::cout << exec.name() << ": " << (out.ok ? "ok" : "FAILED") << " (" << out.method
                << ")" << (out.ok ? "" : ": " + out.message) << '\n';
      if (!out.ok) status = 1;
    });
    return status;
  }
  fuzz::Tally total;
  int printed = 0;
  for_each_space(o.space, [&](const auto& exec) {
    const auto t0 = std::chrono::steady_clock::now();
    fuzz::Tally tally;
    fuzz::run_range(exec, o.seed, o.first, o.cases, lim, tally,
                    [&](const std::string& line, const fuzz::Outcome& out) {
                      if (printed++ < o.max_failures)
                        std::cout << "FAILED on " << exec.name() << ": " << out.message
                                  << "\n  replay: tilekit fuzz --space " << exec.name()
                                  << " --replay \"" << line << "\"\n";
                    });
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << exec.name() << ": seed " << o.seed << ", cases " << o.first << ".."
              << o.first + o.cases - 1 << " in " << s << " s: " << tally.str();
    total.merge(tally);
  });
  if (total.failures > 0) {
    std::cerr << "tilekit fuzz: " << total.failures << " failing cases\n";
    return 1;
  }
  return 0;
}

Runner setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  app.add_option("--space", o->space, "default | host | all | serial | openmp | cuda")
      ->capture_default_str();
  app.add_option("--seed", o->seed, "seed of the run (case i is a function of seed and i)")
      ->capture_default_str();
  app.add_option("--cases", o->cases, "number of cases per space")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  app.add_option("--first", o->first, "index of the first case (to resume a run)")
      ->capture_default_str();
  app.add_option("--max-elements", o->max_elements, "elements of a typical case at most")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app.add_option("--large-elements", o->large_elements,
                 "elements of one case in 64 at most")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app.add_option("--max-failures", o->max_failures, "failing cases printed at most")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--replay", o->replay,
                 "run the one case of this line (as printed for a failing case)");
  return [o] {
    selected_spaces(o->space);  // reject an unknown or disabled space before anything runs
    return run(*o);
  };
}

TILEKIT_SUBCOMMAND(fuzz, "randomized differential testing against a host reference", setup);

}  // namespace
}  // namespace tilekit::tool::fuzz_cmd
