// tilekit: run and measure tilekit's kernels on the enabled Kokkos spaces.
#include <Kokkos_Core.hpp>
#include <tilekit/config.hpp>

#include <cstdlib>
#include <iostream>
#include <map>

#include <unistd.h>

#include "subcommand.hpp"

namespace {
/// Thread placement: with neither OMP_PROC_BIND nor OMP_PLACES set, OpenMP
/// threads may migrate between cores mid-measurement (and Kokkos warns on
/// every run). The OpenMP runtime reads them when the program loads, so the
/// tool sets Kokkos' recommendation (spread over threads) and starts itself
/// again; any value the user sets (OMP_PROC_BIND=false included) is kept.
/// The binding it ran with is printed above every table (kokkos_context.hpp).
void bind_threads(char** argv) {
  if (std::getenv("OMP_PROC_BIND") || std::getenv("OMP_PLACES")) return;
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  execv("/proc/self/exe", argv);  // returns only on failure: run unbound
  unsetenv("OMP_PROC_BIND");
  unsetenv("OMP_PLACES");
}
}  // namespace

int main(int argc, char** argv) {
  bind_threads(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);  // consumes --kokkos-* arguments
  CLI::App app{"tilekit: tiled data-movement kernels on CPU and GPU (Kokkos)"};
  app.set_version_flag("--version", std::string("tilekit ") + tilekit::version_string);
  app.require_subcommand(1);
  std::map<std::string, tilekit::tool::Runner> runners;
  for (const auto& e : tilekit::tool::registry())
    runners[e.name] = e.setup(*app.add_subcommand(e.name, e.description));
  CLI11_PARSE(app, argc, argv);
  try {
    for (auto* sub : app.get_subcommands()) return runners.at(sub->get_name())();
  } catch (const std::exception& e) {
    std::cerr << "tilekit: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
