// `tilekit study [name...]`: the seeds' experiments in one command (cases.cpp
// holds what each study runs), written as a report folder: study.json (every
// row), report.md (writer.cpp), the PNG plots drawn from the JSON by
// bench/study_plots.py (copied into the folder, so they can be redrawn).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "../subcommand.hpp"
#include "cases.hpp"
#include "runner.hpp"
#include "writer.hpp"

#ifndef TILEKIT_STUDY_PLOTS_SCRIPT
#define TILEKIT_STUDY_PLOTS_SCRIPT ""
#endif

namespace tilekit::tool::study {
namespace {

namespace fs = std::filesystem;
/// Debian's python3 (python3-matplotlib), unless TILEKIT_PYTHON names another.
std::string python() {
  const char* p = std::getenv("TILEKIT_PYTHON");
  return p && *p ? p : "/usr/bin/python3";
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

/// Draws the plots with Python and matplotlib when they are there; returns
/// what the report says about the plots.
std::string draw_plots(const fs::path& out) {
  const fs::path script = fs::path(TILEKIT_STUDY_PLOTS_SCRIPT);
  const fs::path copy = out / "study_plots.py";
  std::error_code ec;
  if (!script.empty() && fs::exists(script))
    fs::copy_file(script, copy, fs::copy_options::overwrite_existing, ec);
  if (!fs::exists(copy))
    return "Not drawn: the plotting script (bench/study_plots.py of the tilekit sources) was "
           "not found; copy it into this folder.";
  const std::string py = python();
  if (std::system((quote(py) + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) != 0)
    return "Not drawn: `" + py +
           "` with matplotlib was not found (Debian: apt-get install python3-matplotlib; "
           "TILEKIT_PYTHON names another Python).";
  const std::string cmd = quote(py) + " " + quote(copy.string()) + " " +
                          quote((out / "study.json").string()) + " " + quote(out.string());
  if (std::system((cmd + " >/dev/null").c_str()) != 0) return "Not drawn: `" + cmd + "` failed.";
  return "Drawn by `study_plots.py` (a copy of bench/study_plots.py) from study.json.";
}

Runner setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  std::vector<std::string> names;
  for (const auto& s : studies()) names.push_back(s.name);
  app.add_option("names", o->names, "studies to run (default: all)")
      ->check(CLI::IsMember(names));
  app.add_flag("--quick", o->quick, "small sizes and few repetitions: about a minute (CI runs it)");
  app.add_option("--out", o->out, "report folder (e.g. docs/study/<machine>)")
      ->capture_default_str();
  app.add_option("--space", o->space,
                 "spaces compared: default,host (GPU and CPU in a GPU build) | all | ...")
      ->capture_default_str();
  return [o]() -> int {
    spaces(*o);  // validates --space before anything runs
    const fs::path out(o->out);
    fs::create_directories(out);
    std::vector<std::string> run = o->names;
    if (run.empty())
      for (const auto& s : studies()) run.push_back(s.name);
    std::string command = "tilekit study";
    for (const auto& n : o->names) command += " " + n;
    command += (o->quick ? " --quick" : "") + std::string(" --space ") + o->space + " --out " + o->out;

    report::Report rep = start_report(*o);
    // Every case of every study in one run, so that the time left covers them all.
    std::vector<Case> all;
    for (const auto& st : studies()) {
      if (std::find(run.begin(), run.end(), st.name) == run.end()) continue;
      const auto cs = cases(*o, st.name);
      all.insert(all.end(), cs.begin(), cs.end());
    }
    const RunResult r = run_cases(all, rep);
    for (const auto& [name, secs] : r.study_seconds)
      std::cout << "study " << name << ": " << r.study_cases.at(name) << " cases, "
                << static_cast<long>(secs + 0.5) << " s" << std::endl;
    const bool correct = r.all_correct;
    const std::vector<std::string>& failures = r.failures;
    const double seconds = r.seconds;
    for (std::size_t k = 0; k < rep.rows.size(); ++k) {
      auto& row = rep.rows[k];
      double el = 1;
      for (auto e : row.shape) el *= static_cast<double>(e);
      if (row.ms > 0 && !row.shape.empty()) row.extra["gelems"] = el / (row.ms * 1e-3) / 1e9;
      row.extra["id"] = k;
    }
    auto j = report::to_json(rep);
    j["study"] = {{"command", command},      {"quick", o->quick},
                  {"studies", run},          {"defaults", backend_defaults(*o)},
                  {"failures", failures},    {"seconds", seconds},
                  {"seconds_per_study", r.study_seconds},
                  {"plots", ""}};
    auto write_json = [&] {
      std::ofstream f(out / "study.json");
      f << j.dump(1) << '\n';
    };
    write_json();
    j["study"]["plots"] = draw_plots(out);
    write_json();
    write_report(out.string(), j);
    std::cout << "report: " << (out / "report.md").string() << " (" << rep.rows.size()
              << " rows, " << static_cast<long>(seconds + 0.5) << " s)" << std::endl;
    if (!correct) std::cerr << "tilekit study: at least one kernel gave a wrong result\n";
    return correct && failures.empty() ? 0 : 1;
  };
}

}  // namespace

TILEKIT_SUBCOMMAND(study,
                   "the seeds' studies in one command: size and launch-shape sweeps, cache "
                   "misses at each -O level, CPU vs GPU, the reduce ladder, 2-D vs 3-D; a "
                   "report folder with plots",
                   setup);

}  // namespace tilekit::tool::study
