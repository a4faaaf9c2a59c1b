// Randomized differential testing (src/fuzz, docs/reliability.md): a fixed run
// of random transposes, permutes and reductions on every enabled space, each
// checked element by element against the host reference; the generator's
// coverage (so it cannot silently degenerate) and its one-line reproducers.
// TILEKIT_FUZZ_CASES overrides the case count of the run.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "fuzz_run.hpp"
#include "test_helpers.hpp"

namespace {
using namespace tilekit::test;
namespace fuzz = tilekit::fuzz;

constexpr std::uint64_t kSeed = 20261123;

std::uint64_t case_count() {
  if (const char* s = std::getenv("TILEKIT_FUZZ_CASES")) return std::strtoull(s, nullptr, 10);
  return 50000;
}

TILEKIT_TYPED_TEST_SUITE(Fuzz, tilekit::support::List<float>);

TYPED_TEST(Fuzz, RandomCasesMatchTheHostReference) {
  using Exec = typename TypeParam::exec;
  fuzz::Tally tally;
  std::vector<std::string> failures;
  fuzz::run_range(Exec(), kSeed, 0, case_count(), fuzz::Limits{}, tally,
                  [&](const std::string& line, const fuzz::Outcome& o) {
                    failures.push_back(o.message + "\n  replay: tilekit fuzz --space " +
                                       Exec::name() + " --replay \"" + line + "\"");
                  });
  std::cout << Exec::name() << ": " << tally.str();
  for (std::size_t k = 0; k < failures.size() && k < 20; ++k) ADD_FAILURE() << failures[k];
  EXPECT_EQ(tally.failures, 0);
  // Cases of a type the build does not compile (TILEKIT_ETI_TYPES) are skipped.
  EXPECT_EQ(tally.cases + tally.skipped, static_cast<std::int64_t>(case_count()));
  if (case_count() < 1000) return;  // too few for the coverage checks
  for (const auto& [cat, value] : fuzz::expected_coverage())
    if (cat != "type" || tally.counts["skipped"][value] == 0) {
      EXPECT_GT(tally.counts[cat][value], 0) << "no case of " << cat << " " << value;
    }
  // Every method of the general permute ran (the box kinds depend on the space).
  for (const char* m : {"permute:none", "permute:copy", "permute:rows", "permute:naive",
                        "permute:simple", "permute:shared", "permute:tiled/affine"})
    EXPECT_GT(tally.counts["method"][m], 0) << "no permute case used method " << m;
  std::int64_t table_kinds = tally.counts["method"]["permute:tiled/tables"] +
                             tally.counts["method"]["permute:tiled/load_table"];
  EXPECT_GT(table_kinds, 0) << "no tiled permute with offset tables";
}

TEST(FuzzCases, LinesRoundTripAndReplayTheSameCase) {
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const fuzz::Case c = fuzz::generate(kSeed, i);
    const std::string line = fuzz::format(c);
    const fuzz::Case d = fuzz::parse(line);
    EXPECT_EQ(fuzz::format(d), line);
    EXPECT_EQ(d.shape, c.shape);
    EXPECT_EQ(d.perm, c.perm);
    EXPECT_EQ(std::signbit(d.alpha), std::signbit(c.alpha)) << line;
    EXPECT_EQ(std::signbit(d.beta), std::signbit(c.beta)) << line;
    EXPECT_EQ(d.seed, c.seed);
  }
  // A case is a function of (seed, index) alone.
  EXPECT_EQ(fuzz::format(fuzz::generate(7, 123)), fuzz::format(fuzz::generate(7, 123)));
  EXPECT_NE(fuzz::format(fuzz::generate(7, 123)), fuzz::format(fuzz::generate(8, 123)));
}

TEST(FuzzCases, BoundedSizes) {
  const fuzz::Limits lim;
  std::int64_t large = 0;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const fuzz::Case c = fuzz::generate(kSeed, i, lim);
    ASSERT_LE(c.elements(), lim.large_elements) << fuzz::format(c);
    large += c.elements() > lim.max_elements;
  }
  EXPECT_GT(large, 0);
  EXPECT_LT(large, 20000 / 16);
}

TEST(FuzzCases, BadLinesAreRejectedWithTheField) {
  auto rejects = [](const std::string& line, const std::string& what) {
    try {
      fuzz::parse(line);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << line;
  };
  rejects("op=permute variant=fused type=float shape=2,3", "perm");
  rejects("op=permute variant=fast type=float shape=2 perm=0", "variant");
  rejects("op=reduce variant=sum type=cfloat shape=2", "type");
  rejects("op=reduce variant=sum_compensated type=int32 shape=2", "sum_compensated");
  rejects("op=transpose variant=tiled type=float shape=2,3,4", "2 extents");
  rejects("op=inplace variant=inplace_naive type=float shape=2,3", "square");
  rejects("op=transpose variant=tiled type=float shape=2,x", "integer");
  rejects("op=transpose variant=tiled type=float shape=2,3 color=red", "unknown key");
  rejects("variant=tiled type=float shape=2,3", "required");
  rejects("op=permute variant=simple type=uint8 shape=2,3,4 perm=0,1,2", "fused and naive");
  rejects("op=permute variant=fused type=uint16 shape=2 perm=0 alpha=2", "moved");
}

}  // namespace
