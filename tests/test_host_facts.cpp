// The host backends' readers of Linux's CPU files (backends/host_facts.hpp),
// given files written here in the formats of an x86-64 and an aarch64 kernel:
// the CPU's name and each cache level's size, and what they say when a file
// or a level is missing.
#include <tilekit/backends/host_facts.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {
namespace fs = std::filesystem;
using tilekit::backends::cpu_model_from;
using tilekit::backends::sysfs_cache_bytes;

/// A scratch folder of the test's own, removed afterwards.
class HostFacts : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("tilekit_host_facts_") + info->name() + "_" +
            std::to_string(static_cast<unsigned long>(::getpid())));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  /// cpu0/cache/index<i>/ of a sysfs tree.
  void cache(int i, const std::string& level, const std::string& type, const std::string& size) {
    const std::string d = "cpu0/cache/index" + std::to_string(i) + "/";
    write(d + "level", level + "\n");
    write(d + "type", type + "\n");
    write(d + "size", size + "\n");
  }
  std::string cpu0() const { return (dir_ / "cpu0").string(); }
  fs::path dir_;
};

TEST_F(HostFacts, ModelNameOfX86) {
  const auto p = write("cpuinfo",
                       "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                       "model name\t: AMD EPYC 9654 96-Core Processor  \nflags\t\t: fpu\n\n"
                       "processor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\n");
  EXPECT_EQ(cpu_model_from(p), "AMD EPYC 9654 96-Core Processor");
}

TEST_F(HostFacts, ImplementerAndPartOfAarch64) {
  const std::string core =
      "BogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x61\n"
      "CPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: 0x032\nCPU revision\t: 0\n\n";
  EXPECT_EQ(cpu_model_from(write("apple", "processor\t: 0\n" + core)), "Apple CPU part 0x032");
  EXPECT_EQ(cpu_model_from(write("qcom", "processor\t: 0\nCPU implementer\t: 0x51\n"
                                         "CPU part\t: 0x001\n")),
            "Qualcomm CPU part 0x001");
  EXPECT_EQ(cpu_model_from(write("other", "CPU implementer\t: 0x99\nCPU part\t: 0x123\n")),
            "implementer 0x99 CPU part 0x123");
}

TEST_F(HostFacts, UnknownCpu) {
  EXPECT_EQ(cpu_model_from(write("empty", "processor\t: 0\nBogoMIPS\t: 50.00\n")), "unknown CPU");
  EXPECT_EQ(cpu_model_from((dir_ / "absent").string()), "unknown CPU");
  // A key that only begins like "model name" is another key.
  EXPECT_EQ(cpu_model_from(write("prefix", "model name extra\t: X\n")), "unknown CPU");
}

TEST_F(HostFacts, CacheLevelsFromSysfs) {
  cache(0, "1", "Data", "64K");
  cache(1, "1", "Instruction", "128K");
  cache(2, "2", "Unified", "4096K");
  cache(3, "3", "Unified", "32M");
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 1), std::size_t(64) << 10);
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 2), std::size_t(4) << 20);
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 3), std::size_t(32) << 20);
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 4), 0u);
}

TEST_F(HostFacts, MissingCacheFolders) {
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 1), 0u);  // no cache/ at all
  cache(0, "1", "Instruction", "32K");          // L1 without a data cache
  cache(2, "2", "Unified", "1M");               // index1 missing: the list ends before it
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 1), 0u);
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 2), 0u);
  cache(1, "2", "Unified", "bad");              // no number: unknown
  EXPECT_EQ(sysfs_cache_bytes(cpu0(), 2), 0u);
}

}  // namespace
