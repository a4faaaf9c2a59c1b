// tilekit: run and measure tilekit's kernels on the enabled Kokkos spaces.
#include <Kokkos_Core.hpp>
#include <tilekit/config.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

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

/// Kokkos reads the arguments that start with --kokkos (--kokkos-help,
/// --kokkos-num-threads=N, ...) and no others: given every argument, it
/// would take the tool's --help as its own and print its banner above the
/// tool's help. Returns argv[0] and those arguments; argc and argv keep the
/// rest (argv keeps room for all of them), which the tool parses.
std::vector<char*> take_kokkos_arguments(int& argc, char** argv) {
  std::vector<char*> kokkos{argv[0]};
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with("--kokkos"))
      kokkos.push_back(argv[i]);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return kokkos;
}
}  // namespace

int main(int argc, char** argv) {
  bind_threads(argv);
  std::vector<char*> kokkos_args = take_kokkos_arguments(argc, argv);
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  Kokkos::ScopeGuard kokkos(kokkos_argc, kokkos_args.data());
  // What Kokkos did not take (a misspelt --kokkos option) goes back, for the
  // tool to reject by name.
  for (int i = 1; i < kokkos_argc; ++i) argv[argc++] = kokkos_args[i];
  argv[argc] = nullptr;
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
