#pragma once
// Runs a study's cases in order: a progress line (current case, time spent,
// an estimate of the time left) on a terminal only, every row tagged with its
// study, case and a running id, and a failed case recorded, not fatal.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cases.hpp"

namespace tilekit::tool::study {

struct RunResult {
  bool all_correct = true;            ///< no verified kernel gave a wrong result
  std::vector<std::string> failures;  ///< "case: what went wrong" of cases that threw
  double seconds = 0;
  std::map<std::string, double> study_seconds;  ///< time spent per study
  std::map<std::string, int> study_cases;       ///< cases run per study
};

/// One case run to its end (or to an exception, `failed`), and its time.
struct CaseDone {
  std::string study, label;
  double seconds = 0;
  bool failed = false;
};

/// Runs `cases` in order, appending their rows to rep; after each case calls
/// done(case) (the command writes the report so far, so an interrupted run
/// keeps what it measured and `--resume` goes on from there).
RunResult run_cases(const std::vector<Case>& cases, report::Report& rep,
                    const std::function<void(const CaseDone&)>& done = {});

}  // namespace tilekit::tool::study
