#pragma once
// Self-registration of the tool's subcommands: a cmd_<op>.cpp file declares
//   TILEKIT_SUBCOMMAND(op, "description", setup)
// where setup(CLI::App&) adds its options and returns the function to run.
// The files compile as one unit (TILEKIT_TOOL_UNITY, src/tool/CMakeLists.txt),
// so each keeps its own names in a namespace of its own (tilekit::tool::<op>_cmd);
// the registrar is named for the subcommand. `tilekit --help` lists the
// subcommands in the order they register.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace tilekit::tool {

using Runner = std::function<int()>;
using Setup = Runner (*)(CLI::App&);

struct Entry {
  std::string name, description;
  Setup setup;
};

inline std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

struct Registrar {
  Registrar(const char* name, const char* description, Setup setup) {
    registry().push_back({name, description, setup});
  }
};

}  // namespace tilekit::tool

#define TILEKIT_SUBCOMMAND(name, description, setup) \
  static const ::tilekit::tool::Registrar tilekit_subcommand_##name{#name, description, setup}
