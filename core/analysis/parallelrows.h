#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace core {

/// Runs `work(begin, end)` over [0, rows) split into contiguous ranges, one
/// per hardware thread (the calling thread takes the first), and returns
/// when all are done. Each range writes only its own rows' results, so the
/// ranges share nothing but read-only inputs. Below `minRowsPerThread` rows
/// a range is not worth a thread: a small grid runs on the caller alone.
template <typename Work>
void forEachRowRange(std::size_t rows, std::size_t minRowsPerThread, Work &&work)
{
    const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = std::clamp<std::size_t>(rows / std::max<std::size_t>(1, minRowsPerThread), 1, hardware);
    std::vector<std::thread> helpers;
    helpers.reserve(threads - 1);
    const auto rangeStart = [&](std::size_t k) { return rows * k / threads; };
    for (std::size_t k = 1; k < threads; ++k)
        helpers.emplace_back([&work, begin = rangeStart(k), end = rangeStart(k + 1)] { work(begin, end); });
    work(rangeStart(0), rangeStart(1));
    for (std::thread &helper : helpers)
        helper.join();
}

} // namespace core
