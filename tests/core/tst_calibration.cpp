// Calibration: fitting cuda_overhead and allocator_reserve to what a user
// measured, and profiles as shareable JSON. Expected values are hand
// calculations from the measurement and the estimate's tensor terms.

#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/runs/calibration.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario llamaInference()
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.gpuId = "a100-sxm4-80gb";
    return s;
}

core::Bytes tensorsOf(const core::Scenario &s)
{
    const core::Estimate e = core::estimate(s);
    return e.total - e.term(core::TermId::CudaOverhead) - e.term(core::TermId::AllocatorReserve)
        - e.term(core::TermId::CommBuffers);
}

} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT

private slots:
    void reserveFromReservedAndAllocated();
    void contextFromNvidiaSmiAndReserved();
    void nvidiaSmiAloneReproducesTheMeasurement();
    void emptyOrImpossibleMeasurements();
    void profileRoundTrip();
    void badProfiles_data();
    void badProfiles();
    void parseBytes_data();
    void parseBytes();
};

void TestCalibration::reserveFromReservedAndAllocated()
{
    core::Measurement m;
    m.allocated = core::Bytes::gib(14);
    m.reserved = core::Bytes::gib(15.4); // 10 % above allocated
    const auto r = core::calibrate(llamaInference(), m, "x");
    QVERIFY(r.notes.empty());
    QVERIFY(std::abs(r.profile.reservePercent - 10.0) < 1e-6);
    // The model's tensor error against the measured allocation is reported.
    const double expected = 100.0 * (static_cast<double>(tensorsOf(llamaInference()).count()) - core::Bytes::gib(14).count())
        / core::Bytes::gib(14).count();
    QVERIFY(std::abs(*r.tensorErrorPercent - expected) < 1e-9);
}

void TestCalibration::contextFromNvidiaSmiAndReserved()
{
    core::Measurement m;
    m.allocated = core::Bytes::gib(14);
    m.reserved = core::Bytes::gib(15);
    m.nvidiaSmi = core::Bytes::gib(15) + core::Bytes::mib(700);
    const auto r = core::calibrate(llamaInference(), m, "x");
    QVERIFY(std::abs(r.profile.cudaOverheadMib - 700.0) < 1e-6); // smi - reserved (one GPU: no NCCL)
}

void TestCalibration::nvidiaSmiAloneReproducesTheMeasurement()
{
    core::Scenario s = llamaInference();
    core::Measurement m;
    m.nvidiaSmi = core::Bytes::mib(15000);
    const auto r = core::calibrate(s, m, "x");
    // The fitted context closes the gap: the calibrated total is the measurement.
    QVERIFY(std::abs(static_cast<double>(r.calibratedTotal.count()) - static_cast<double>(m.nvidiaSmi->count())) < 4096);
    QCOMPARE(r.profile.reservePercent, s.reservePercent); // nothing pins the reserve
    QCOMPARE(core::estimate(core::withCalibration(s, r.profile)).total, r.calibratedTotal);
}

void TestCalibration::emptyOrImpossibleMeasurements()
{
    QVERIFY(!core::calibrate(llamaInference(), {}, "x").notes.empty());
    core::Measurement below;
    below.allocated = core::Bytes::gib(14);
    below.reserved = core::Bytes::gib(10);
    const auto r = core::calibrate(llamaInference(), below, "x");
    QVERIFY(!r.notes.empty());
    QCOMPARE(r.profile.reservePercent, llamaInference().reservePercent);
}

void TestCalibration::profileRoundTrip()
{
    core::Measurement m;
    m.nvidiaSmi = core::Bytes::mib(15000);
    m.allocated = core::Bytes::gib(13);
    const auto r = core::calibrate(llamaInference(), m, "lab A100");
    const std::string text = core::io::saveCalibration(r.profile, "2026-11-30");
    const auto loaded = core::io::loadCalibration(text);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.value->name, std::string("lab A100"));
    QCOMPARE(loaded.value->gpuId, std::string("a100-sxm4-80gb"));
    QCOMPARE(loaded.value->cudaOverheadMib, r.profile.cudaOverheadMib);
    QCOMPARE(loaded.value->reservePercent, r.profile.reservePercent);
    QCOMPARE(*loaded.value->measurement.nvidiaSmi, *m.nvidiaSmi);
    QCOMPARE(core::io::saveCalibration(*loaded.value, "2026-11-30"), text);
}

void TestCalibration::badProfiles_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not a profile") << R"({"schema_version": 1, "kind": "vramplanner-scenario"})" << "/kind";
    QTest::newRow("negative context") << R"({"schema_version": 1, "kind": "vramplanner-calibration", "name": "x",
        "cuda_overhead_mib": -5, "reserve_percent": 5})" << "/cuda_overhead_mib";
    QTest::newRow("reserve 100") << R"({"schema_version": 1, "kind": "vramplanner-calibration", "name": "x",
        "cuda_overhead_mib": 500, "reserve_percent": 100})" << "/reserve_percent";
    QTest::newRow("truncated") << R"({"schema_version": 1, "kind": )" << "malformed JSON";
}

void TestCalibration::badProfiles()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const auto result = core::io::loadCalibration(json.toStdString());
    QVERIFY(!result.ok());
    bool named = false;
    for (const std::string &e : result.errors)
        named = named || e.find(expected.toStdString()) != std::string::npos;
    QVERIFY(named);
}

void TestCalibration::parseBytes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("bytes");
    QTest::newRow("MiB") << "14949MiB" << 14949ull * 1048576;
    QTest::newRow("GiB with space") << "29 GiB" << 29ull * 1073741824;
    QTest::newRow("GB") << "15.2GB" << 15200000000ull;
    QTest::newRow("plain bytes") << "4096" << 4096ull;
    QTest::newRow("negative") << "-1GiB" << 0ull;
    QTest::newRow("words") << "lots" << 0ull;
}

void TestCalibration::parseBytes()
{
    QFETCH(QString, text);
    QFETCH(qulonglong, bytes);
    QCOMPARE(static_cast<qulonglong>(core::parseBytes(text.toStdString()).value_or(core::Bytes()).count()), bytes);
}

VRAM_TEST_MAIN(tst_calibration, TestCalibration, None)
#include "tst_calibration.moc"
