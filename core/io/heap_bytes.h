// heap_bytes.h — a file's bytes in one malloc'd buffer that can give its tail back while it is
// being read from the end. A checkpoint's weights are decoded last tensor first and the file
// shrinks behind each one, so the file (440 MB for BERT-base) and the weights decoded from it
// are never both held whole: the freed tail is where the next tensors go.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ew {

class HeapBytes {
 public:
  HeapBytes() = default;
  explicit HeapBytes(std::size_t size);      // uninitialized; std::bad_alloc when there is no room
  explicit HeapBytes(const std::string& s);  // a copy (tests, the fuzzer)
  HeapBytes(HeapBytes&& o) noexcept;
  HeapBytes& operator=(HeapBytes&& o) noexcept;
  HeapBytes(const HeapBytes&) = delete;
  HeapBytes& operator=(const HeapBytes&) = delete;
  ~HeapBytes();

  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Keeps the first `size` bytes (≤ size()) and returns the rest to the allocator. data() may
  // move (realloc), so pointers into the buffer must be taken again afterwards.
  void shrink(std::size_t size);
  // Gives up the buffer (malloc'd: the caller frees it) and leaves this empty.
  std::uint8_t* release() {
    std::uint8_t* p = data_;
    data_ = nullptr;
    size_ = 0;
    return p;
  }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ew
