// heap_bytes.cpp — HeapBytes (heap_bytes.h): malloc, realloc to shrink, free.
#include "io/heap_bytes.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace ew {

HeapBytes::HeapBytes(std::size_t size) : data_(static_cast<std::uint8_t*>(std::malloc(size ? size : 1))), size_(size) {
  if (!data_) throw std::bad_alloc();
}

HeapBytes::HeapBytes(const std::string& s) : HeapBytes(s.size()) {
  if (!s.empty()) std::memcpy(data_, s.data(), s.size());
}

HeapBytes::HeapBytes(HeapBytes&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

HeapBytes& HeapBytes::operator=(HeapBytes&& o) noexcept {
  if (this != &o) {
    std::free(data_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

HeapBytes::~HeapBytes() { std::free(data_); }

void HeapBytes::shrink(std::size_t size) {
  if (size >= size_) return;
  // Shrinking realloc splits the block in place (dlmalloc, glibc); if it ever fails, the
  // buffer simply stays as it was.
  if (void* p = std::realloc(data_, size ? size : 1)) data_ = static_cast<std::uint8_t*>(p);
  size_ = size;
}

}  // namespace ew
