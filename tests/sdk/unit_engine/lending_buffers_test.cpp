// The transport's lending buffers: a buffer is handed out again only when no lent line holds it,
// and when all are held there is none (the transport then copies lines).
#include "process/lending_buffers.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

namespace claude::sdk::process {
namespace {

TEST(LendingBuffers, AFreeBufferIsReusedAndAHeldOneIsNot) {
  LendingBuffers buffers(1024, 64);
  const auto* first = buffers.free_buffer();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(buffers.free_buffer(), first);  // nobody holds it: the same one again
  const std::shared_ptr<const void> held = *first;
  const auto* second = buffers.free_buffer();
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second->get(), first->get());
}

TEST(LendingBuffers, WhenAllAreHeldThereIsNoneUntilOneIsLetGo) {
  LendingBuffers buffers(1024, 64);
  std::vector<std::shared_ptr<const void>> held;
  std::set<const char*> distinct;
  for (std::size_t i = 0; i < LendingBuffers::kMaxBuffers; ++i) {
    const auto* buffer = buffers.free_buffer();
    ASSERT_NE(buffer, nullptr);
    distinct.insert(buffer->get());
    held.emplace_back(*buffer);
  }
  EXPECT_EQ(distinct.size(), LendingBuffers::kMaxBuffers);
  EXPECT_EQ(buffers.free_buffer(), nullptr);
  const void* released = held[2].get();
  held.erase(held.begin() + 2);
  const auto* again = buffers.free_buffer();
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->get(), released);
}

TEST(LendingBuffers, EveryBufferHasItsPaddingWritable) {
  LendingBuffers buffers(100, 64);
  const auto* buffer = buffers.free_buffer();
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffers.bytes(), 100u);
  (*buffer)[100 + 63] = 'x';  // past the bytes read into, within the padding (ASan checks)
  EXPECT_EQ((*buffer)[163], 'x');
}

}  // namespace
}  // namespace claude::sdk::process
