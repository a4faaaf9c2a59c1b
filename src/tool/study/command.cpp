// `tilekit study [name...]`: the seeds' experiments in one command (cases.cpp
// holds what each study runs), written as a report folder: study.json (every
// row), report.md (writer.cpp), the PNG plots drawn from the JSON by
// bench/study_plots.py (copied into the folder, so they can be redrawn).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <utility>

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
  auto* space = app.add_option("--space", o->space,
                                "spaces compared: default,host (GPU and CPU in a GPU build; "
                                "the default space alone in a build without a host space) | "
                                "all | ...")
                    ->capture_default_str();
  app.add_flag("--resume", o->resume,
               "go on from the study.json an interrupted run of the same command left in --out "
               "(its cases are not run again)");
  app.add_flag("--redraw", o->redraw,
               "run nothing: draw the plots of the finished study.json in --out and rewrite its "
               "report.md (for a report made where matplotlib was missing)");
  return [o, space]() -> int {
    // A build with no host space (TILEKIT_SPACES=Cuda) studies its GPU unless told otherwise.
    if (space->count() == 0 && !host_space_built()) o->space = "default";
    const fs::path out(o->out);
    if (o->redraw) {
      nlohmann::ordered_json j;
      std::ifstream(out / "study.json") >> j;
      if (!j.contains("study") || j["study"].value("partial", true))
        throw CLI::ValidationError("--redraw", (out / "study.json").string() +
                                                   " is not a finished study report");
      j["study"]["plots"] = draw_plots(out);
      std::ofstream(out / "study.json") << j.dump(1) << '\n';
      write_report(out.string(), j);
      std::cout << "report: " << (out / "report.md").string() << " (redrawn)" << std::endl;
      return 0;
    }
    spaces(*o);  // validates --space before anything runs
    std::vector<std::string> run = o->names;
    if (run.empty())
      for (const auto& s : studies()) run.push_back(s.name);
    std::string command = "tilekit study";
    for (const auto& n : o->names) command += " " + n;
    command += (o->quick ? " --quick" : "") + std::string(" --space ") + o->space + " --out " + o->out;

    report::Report rep = start_report(*o);
    // Cases finished by an earlier, interrupted run of the same command.
    nlohmann::ordered_json finished = nlohmann::ordered_json::array();
    std::set<std::pair<std::string, std::string>> skip;
    if (o->resume) {
      const fs::path prev = out / "study.json";
      if (!fs::exists(prev)) throw CLI::ValidationError("--resume", prev.string() + " does not exist");
      nlohmann::ordered_json p;
      std::ifstream(prev) >> p;
      if (!p.contains("study") || p["study"].value("command", "") != command)
        throw CLI::ValidationError("--resume", prev.string() + " is from another command (" +
                                   (p.contains("study") ? p["study"].value("command", "?") : "?") + ")");
      if (!p["study"].value("partial", false))
        throw CLI::ValidationError("--resume", prev.string() + " is a finished report");
      for (const auto& row : p["rows"]) rep.rows.push_back(report::row_from_json(row));
      for (const auto& c : p["study"]["cases"]) {
        finished.push_back(c);
        skip.insert({c["study"].get<std::string>(), c["case"].get<std::string>()});
      }
    }
    fs::create_directories(out);
    // Every case of every study in one run, so that the time left covers them all.
    std::vector<Case> all;
    for (const auto& st : studies()) {
      if (std::find(run.begin(), run.end(), st.name) == run.end()) continue;
      for (auto& c : cases(*o, st.name))
        if (!skip.count({c.study, c.label})) all.push_back(std::move(c));
    }
    if (o->resume)
      std::cout << "resuming: " << skip.size() << " cases done, " << all.size() << " to run" << std::endl;

    nlohmann::ordered_json case_times = finished;
    std::vector<std::string> failures;
    auto compose = [&](bool partial) {
      for (std::size_t k = 0; k < rep.rows.size(); ++k) {
        auto& row = rep.rows[k];
        double el = 1;
        for (auto e : row.shape) el *= static_cast<double>(e);
        if (row.ms > 0 && !row.shape.empty()) row.extra["gelems"] = el / (row.ms * 1e-3) / 1e9;
        row.extra["id"] = k;
      }
      double seconds = 0;
      std::map<std::string, double> per_study;
      for (const auto& c : case_times) {
        seconds += c["seconds"].get<double>();
        per_study[c["study"].get<std::string>()] += c["seconds"].get<double>();
      }
      auto j = report::to_json(rep);
      j["study"] = {{"command", command},   {"quick", o->quick},
                    {"studies", run},       {"defaults", backend_defaults(*o)},
                    {"partial", partial},   {"failures", failures},
                    {"seconds", seconds},   {"seconds_per_study", per_study},
                    {"cases", case_times},  {"plots", ""}};
      return j;
    };
    auto write_json = [&](const nlohmann::ordered_json& j) {
      // Written beside and renamed: an interrupted write never leaves half a file.
      const fs::path tmp = out / "study.json.tmp";
      {
        std::ofstream f(tmp);
        f << j.dump(1) << '\n';
      }
      fs::rename(tmp, out / "study.json");
    };
    const RunResult r = run_cases(all, rep, [&](const CaseDone& d) {
      if (d.failed) return;  // not recorded as done: --resume runs it again
      case_times.push_back({{"study", d.study}, {"case", d.label}, {"seconds", d.seconds}});
      write_json(compose(true));
    });
    failures = r.failures;
    for (const auto& [name, secs] : r.study_seconds)
      std::cout << "study " << name << ": " << r.study_cases.at(name) << " cases, "
                << static_cast<long>(secs + 0.5) << " s" << std::endl;
    auto j = compose(false);
    write_json(j);
    j["study"]["plots"] = draw_plots(out);
    write_json(j);
    write_report(out.string(), j);
    std::cout << "report: " << (out / "report.md").string() << " (" << rep.rows.size()
              << " rows, " << static_cast<long>(j["study"]["seconds"].get<double>() + 0.5)
              << " s)" << std::endl;
    if (!r.all_correct) std::cerr << "tilekit study: at least one kernel gave a wrong result\n";
    return r.all_correct && failures.empty() ? 0 : 1;
  };
}

}  // namespace

TILEKIT_SUBCOMMAND(study,
                   "the seeds' studies in one command: size and launch-shape sweeps, cache "
                   "misses at each -O level, CPU vs GPU, the reduce ladder, 2-D vs 3-D; a "
                   "report folder with plots",
                   setup);

}  // namespace tilekit::tool::study
