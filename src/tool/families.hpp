#pragma once
// The measurement of each family as a callable function: the arguments of
// one call and the function that runs it on the selected spaces and types,
// appending its rows (and the devices it ran on) to a Report. The cmd_<op>.cpp
// subcommands map their command-line options onto these; `tilekit study`
// calls them from its table of cases (study/cases.cpp). Each returns false
// when a verified kernel gave a wrong result. One header per family
// (<op>_args.hpp), so that a family's case units include only their own
// family's headers.
#include "cmm_args.hpp"
#include "permute_args.hpp"
#include "reduce_args.hpp"
#include "transpose_args.hpp"
