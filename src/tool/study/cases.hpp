#pragma once
// `tilekit study`: the studies and their table of cases (cases.cpp holds
// every study's sizes, variants and repetitions, quick and full).
#include <functional>
#include <string>
#include <vector>

#include "../spaces.hpp"  // is_gpu
#include "report.hpp"

namespace tilekit::tool::study {

struct Options {
  std::vector<std::string> names;  ///< studies to run; empty = all
  bool quick = false;
  bool resume = false;  ///< go on from the partial study.json an interrupted run left
  bool redraw = false;  ///< redraw the plots and rewrite report.md of a finished study.json
  std::string out = "tilekit-study";
  std::string space = "default,host";  ///< the spaces compared
};

/// One study: its name on the command line, title, seeds and a sentence of what it measures.
struct Study {
  std::string name, title, seeds, about;
};
const std::vector<Study>& studies();

/// One step of a study: run() appends rows to the report (and returns false
/// on a wrong result); weight is its expected cost, for the progress estimate.
struct Case {
  std::string study, label;
  double weight = 1;
  std::function<bool(report::Report&)> run;
};

/// The cases of `study` on the spaces of o.space, in the order they run.
std::vector<Case> cases(const Options& o, const std::string& study);

/// The spaces o.space selects in this build (Kokkos names; is_gpu, spaces.hpp,
/// says which computes on a GPU).
std::vector<std::string> spaces(const Options& o);

/// An empty report with the Kokkos configuration and the hardware of the
/// spaces of o.space and of the host space (whose caches the plots mark).
report::Report start_report(const Options& o);

/// The launch shapes the backends pick when not told: "tile", "threads" of
/// the tiled transpose (float) and the ladder's "block", as JSON per space.
nlohmann::ordered_json backend_defaults(const Options& o);

}  // namespace tilekit::tool::study
