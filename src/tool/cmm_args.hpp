#pragma once
// Checkered matrix multiplication's measurement (`tilekit cmm`, the study): its
// arguments and the function that runs it (cmd_cmm.cpp). families.hpp
// includes every family's.
#include <tilekit/cmm.hpp>

#include <cstdint>
#include <string>

#include "measure_common.hpp"

namespace tilekit::tool {

struct CmmArgs {
  CommonOptions common;
  std::int64_t n = 1024;
  std::string variant = "all";
  CmmOptions shape;
};
bool measure_cmm(const CmmArgs& a, report::Report& rep);

}  // namespace tilekit::tool
