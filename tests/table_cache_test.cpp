#include "permuzzle/core/table_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace permuzzle {
namespace table_cache_test {

class TableCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("permuzzle-cache-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  TableKey key_{"sliding-4x4", "5-5-5/a", 3};
};

TEST_F(TableCacheTest, RoundTripsAndDetectsMissing) {
  std::vector<std::uint8_t> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<std::uint8_t> loaded;
  EXPECT_EQ(load_table(dir_, key_, loaded).status, TableLoadStatus::Missing);
  ASSERT_TRUE(save_table(dir_, key_, data).ok());
  auto outcome = load_table(dir_, key_, loaded, data.size());
  EXPECT_EQ(outcome.status, TableLoadStatus::Loaded) << outcome.detail;
  EXPECT_EQ(loaded, data);
}

TEST_F(TableCacheTest, DetectsStaleVersionPatternAndSize) {
  std::vector<std::uint8_t> data(64, 1), loaded;
  ASSERT_TRUE(save_table(dir_, key_, data).ok());
  TableKey newer = key_;
  newer.format_version = 4;
  EXPECT_EQ(load_table(dir_, newer, loaded).status, TableLoadStatus::Stale);
  EXPECT_EQ(load_table(dir_, key_, loaded, 65).status, TableLoadStatus::Stale);
}

TEST_F(TableCacheTest, DetectsTruncationAndFlippedByte) {
  std::vector<std::uint8_t> data(4096, 9), loaded;
  ASSERT_TRUE(save_table(dir_, key_, data).ok());
  std::string path = table_path(dir_, key_);
  auto size = std::filesystem::file_size(path);
  {  // flip one payload byte
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 100));
    f.put(static_cast<char>(10));
  }
  auto flipped = load_table(dir_, key_, loaded);
  EXPECT_EQ(flipped.status, TableLoadStatus::Corrupt);
  EXPECT_NE(flipped.detail.find("checksum"), std::string::npos) << flipped.detail;
  std::filesystem::resize_file(path, size - 10);
  EXPECT_EQ(load_table(dir_, key_, loaded).status, TableLoadStatus::Corrupt);
  std::filesystem::resize_file(path, 5);
  EXPECT_EQ(load_table(dir_, key_, loaded).status, TableLoadStatus::Corrupt);
}

// The caller-owned buffer overloads (large tables) share the header and checks.
TEST_F(TableCacheTest, BufferOverloadsRoundTripAndCheck) {
  std::vector<std::uint8_t> data(3000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 13 + 1);
  std::vector<std::uint8_t> buffer(data.size());
  EXPECT_EQ(load_table(dir_, key_, buffer.data(), buffer.size()).status, TableLoadStatus::Missing);
  ASSERT_TRUE(save_table(dir_, key_, data.data(), data.size()).ok());
  auto outcome = load_table(dir_, key_, buffer.data(), buffer.size());
  EXPECT_EQ(outcome.status, TableLoadStatus::Loaded) << outcome.detail;
  EXPECT_EQ(buffer, data);
  std::vector<std::uint8_t> as_vector;  // the vector form reads the same file
  EXPECT_EQ(load_table(dir_, key_, as_vector, data.size()).status, TableLoadStatus::Loaded);
  EXPECT_EQ(as_vector, data);
  EXPECT_EQ(load_table(dir_, key_, buffer.data(), buffer.size() - 1).status,
            TableLoadStatus::Stale);
  std::string path = table_path(dir_, key_);
  {  // flip one payload byte
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) - 7));
    f.put(static_cast<char>(0));
  }
  EXPECT_EQ(load_table(dir_, key_, buffer.data(), buffer.size()).status, TableLoadStatus::Corrupt);
}

}  // namespace table_cache_test
}  // namespace permuzzle
