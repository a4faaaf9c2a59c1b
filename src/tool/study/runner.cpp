#include "runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <unistd.h>

namespace tilekit::tool::study {
namespace {

std::string clock(double s) {
  const long t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

RunResult run_cases(const std::vector<Case>& cases, report::Report& rep,
                    const std::function<void(const CaseDone&)>& on_done) {
  using Clock = std::chrono::steady_clock;
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  double total = 0, done = 0;
  for (const auto& c : cases) total += c.weight;
  RunResult out;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    if (tty) {
      // Time left: the time per unit of expected cost so far, times the cost to come.
      const std::string left =
          done > 0 ? "about " + clock(elapsed() / done * (total - done)) + " left" : "";
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s  %s elapsed %s", k + 1, cases.size(),
                   c.study.c_str(), c.label.c_str(), clock(elapsed()).c_str(), left.c_str());
      std::fflush(stderr);
    }
    const std::size_t first = rep.rows.size();
    const double t0 = elapsed();
    bool failed = false;
    try {
      out.all_correct = c.run(rep) && out.all_correct;
    } catch (const std::exception& e) {
      rep.rows.resize(first);
      failed = true;
      out.failures.push_back(c.study + ": " + c.label + ": " + e.what());
      if (tty) std::fprintf(stderr, "\n");
      std::fprintf(stderr, "tilekit study: %s: %s failed: %s\n", c.study.c_str(),
                   c.label.c_str(), e.what());
    }
    for (std::size_t r = first; r < rep.rows.size(); ++r) {
      rep.rows[r].extra["study"] = c.study;
      rep.rows[r].extra["case"] = c.label;
    }
    const double secs = elapsed() - t0;
    out.study_seconds[c.study] += secs;
    out.study_cases[c.study] += 1;
    done += c.weight;
    if (on_done) on_done({c.study, c.label, secs, failed});
  }
  if (tty) std::fprintf(stderr, "\r\033[K");
  out.seconds = elapsed();
  return out;
}

}  // namespace tilekit::tool::study
