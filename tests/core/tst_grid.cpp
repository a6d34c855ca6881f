// The batch x context grid and its fit boundaries: the grid is the engine at
// every point, and the boundary of a capacity is the largest batch whose KV
// cache still fits, by hand.

#include "core/analysis/sweep.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include <QtTest>

class TestGrid : public QObject
{
    Q_OBJECT

private slots:
    void logSpacedValuesAreDistinctAndSpanTheRange();
    void gridIsTheEngineAtEveryPoint();
    void boundaryIsTheLastSequenceThatFitsByHand_data();
    void boundaryIsTheLastSequenceThatFitsByHand();
};

namespace {

/// Llama 2 7B in bf16 served by llama.cpp with no allocator reserve: once
/// the batch fills a micro-batch, one more sequence adds its KV cache and
/// nothing else, so at each context the total grows linearly with the batch.
core::Scenario llama2()
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.mode = core::Mode::Inference;
    s.serving = core::ServingEngine::LlamaCpp;
    s.reservePercent = 0;
    return s;
}

// K and V x 32 layers x 4,096 hidden x 2 bytes (f16) = 512 KiB per token.
constexpr std::uint64_t kKvPerToken = 2ull * 32 * 4096 * 2;

core::Bytes totalAt(std::uint64_t batch, std::uint64_t sequence)
{
    return core::estimate(core::withAxis(core::withAxis(llama2(), core::SweepAxis::Batch, batch), core::SweepAxis::Sequence, sequence))
        .total;
}

} // namespace

void TestGrid::logSpacedValuesAreDistinctAndSpanTheRange()
{
    const std::vector<std::uint64_t> v = core::logSpaced(1, 4096, 48);
    QCOMPARE(v.front(), std::uint64_t(1));
    QCOMPARE(v.back(), std::uint64_t(4096));
    QVERIFY(std::adjacent_find(v.begin(), v.end(), [](auto a, auto b) { return a >= b; }) == v.end());
    QVERIFY(v.size() < 48); // 1, 1.19, 1.41 ... round to the same integers at first
    QCOMPARE(core::logSpaced(128, 1024, 4), (std::vector<std::uint64_t>{128, 256, 512, 1024}));
    QVERIFY(core::logSpaced(0, 10, 5).empty());
    QVERIFY(core::logSpaced(10, 5, 5).empty());
}

void TestGrid::gridIsTheEngineAtEveryPoint()
{
    const std::vector<std::uint64_t> batches = {1, 3, 16};
    // From 512 tokens on, every batch fills llama.cpp's 512-token
    // micro-batch, so its compute buffer no longer grows with the batch.
    const std::vector<std::uint64_t> sequences = {512, 4096};
    const std::vector<core::Bytes> grid = core::batchContextGrid(llama2(), batches, sequences);
    QCOMPARE(grid.size(), std::size_t(6));
    for (std::size_t i = 0; i < batches.size(); ++i)
        for (std::size_t j = 0; j < sequences.size(); ++j) {
            // Row-major, batch by sequence: the engine's total there, which
            // grows by one KV cache per sequence (by hand).
            const core::Bytes cell = grid[i * sequences.size() + j];
            QCOMPARE(cell, totalAt(batches[i], sequences[j]));
            QCOMPARE(cell.count() - grid[j].count(), (batches[i] - 1) * sequences[j] * kKvPerToken);
        }
    // A point the engine rejects never fits.
    core::Scenario broken = llama2();
    broken.gpus = 0;
    QVERIFY(core::batchContextGrid(broken, {1}, {256}).front().isSaturated());
}

void TestGrid::boundaryIsTheLastSequenceThatFitsByHand_data()
{
    QTest::addColumn<std::uint64_t>("sequence");
    QTest::addColumn<std::uint64_t>("caches"); // sequences' KV caches the capacity holds beyond batch 1's total
    QTest::addColumn<qint64>("slack");         // bytes beyond those
    QTest::addColumn<std::uint64_t>("expected");
    // Batch 1's total plus 9 caches of 4,096 tokens (2 GiB each) hold batch
    // 10 exactly; a byte less, batch 9; half a cache more changes nothing.
    const qint64 halfCache = 2048 * 512 * 1024;
    QTest::newRow("exactly 10 at 4,096") << std::uint64_t(4096) << std::uint64_t(9) << qint64(0) << std::uint64_t(10);
    QTest::newRow("a byte short of 10") << std::uint64_t(4096) << std::uint64_t(9) << qint64(-1) << std::uint64_t(9);
    QTest::newRow("half a cache over 10") << std::uint64_t(4096) << std::uint64_t(9) << halfCache << std::uint64_t(10);
    QTest::newRow("20 at 2,048") << std::uint64_t(2048) << std::uint64_t(19) << qint64(0) << std::uint64_t(20);
    QTest::newRow("capped at the largest batch asked") << std::uint64_t(128) << std::uint64_t(10000) << qint64(0) << std::uint64_t(4096);
}

void TestGrid::boundaryIsTheLastSequenceThatFitsByHand()
{
    QFETCH(std::uint64_t, sequence);
    QFETCH(std::uint64_t, caches);
    QFETCH(qint64, slack);
    QFETCH(std::uint64_t, expected);
    const std::uint64_t capacity = totalAt(1, sequence).count() + caches * sequence * kKvPerToken + static_cast<std::uint64_t>(slack);
    const auto boundaries = core::largestBatches(llama2(), {sequence}, {core::Bytes::fromCount(capacity)}, 4096);
    QCOMPARE(boundaries.size(), std::size_t(1));
    QCOMPARE(boundaries.front().front(), expected);
    // At the boundary b fits and b + 1 does not, as the engine says.
    QVERIFY(totalAt(expected, sequence).count() <= capacity);
    if (expected < 4096)
        QVERIFY(totalAt(expected + 1, sequence).count() > capacity);
    // Not even batch 1 below its own total.
    QCOMPARE(core::largestBatches(llama2(), {sequence}, {core::Bytes::fromCount(totalAt(1, sequence).count() - 1)}, 4096)
                 .front()
                 .front(),
             std::uint64_t(0));
}

VRAM_TEST_MAIN(tst_grid, TestGrid, None)
#include "tst_grid.moc"
