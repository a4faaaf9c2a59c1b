#pragma once
// Umbrella header: every tilekit algorithm family.
#include <tilekit/cmm.hpp>
#include <tilekit/config.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/fresh_output.hpp>
#include <tilekit/hardware.hpp>
#include <tilekit/permute.hpp>
#include <tilekit/reduce.hpp>
#include <tilekit/transpose.hpp>
#include <tilekit/tune.hpp>
