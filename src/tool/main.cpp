// tilekit: run and measure tilekit's kernels on the enabled Kokkos spaces.
#include <Kokkos_Core.hpp>
#include <tilekit/config.hpp>

#include <iostream>
#include <map>

#include "subcommand.hpp"

int main(int argc, char** argv) {
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
