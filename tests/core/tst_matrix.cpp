// The format x GPU matrix: each cell is the estimate of that format fitted
// to that GPU, and its exports carry every cell.

#include "core/analysis/matrix.h"
#include "core/explain/report.h"
#include "core/io/builtin.h"
#include "core/io/reportjson.h"
#include "tests/support/testregistry.h"

#include <QtTest>

class TestMatrix : public QObject
{
    Q_OBJECT

private slots:
    void cellsAreTheFitsOfEachFormat();
    void exportsCarryEveryCell();
};

namespace {

core::Scenario llama2(std::uint64_t sequence)
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.sequence = sequence;
    return s;
}

} // namespace

void TestMatrix::cellsAreTheFitsOfEachFormat()
{
    // Llama 2 7B's 6,738,415,616 parameters in bf16 take 13,476,831,232
    // bytes (12.55 GiB): beyond an 8 GB RTX 3070, within a 24 GB RTX 4090;
    // at 4.5 bits (Q4_0: 18 bytes per 32) 3.53 GiB fit both.
    const core::Catalog &catalog = core::io::builtinCatalog();
    const std::vector<core::WeightFormat> formats = {core::WeightFormat::Bf16, core::WeightFormat::GgufQ4_0};
    const core::FormatMatrix m = core::formatMatrix(llama2(2048), catalog, formats, {"rtx-3070", "rtx-4090"});
    QCOMPARE(m.formats.size(), std::size_t(2));
    QCOMPARE(m.gpuIds.size(), std::size_t(2)); // in catalog order
    const auto column = [&m](const char *id) {
        return static_cast<std::size_t>(std::find(m.gpuIds.begin(), m.gpuIds.end(), id) - m.gpuIds.begin());
    };
    QVERIFY(!m.at(0, column("rtx-3070")).fits);
    QVERIFY(m.at(0, column("rtx-3070")).gpusNeeded >= 2);
    QVERIFY(m.at(0, column("rtx-4090")).fits);
    QVERIFY(m.at(1, column("rtx-3070")).fits);
    QVERIFY(m.at(1, column("rtx-4090")).fits);
    // Each cell is that format's own estimate and fit.
    for (std::size_t i = 0; i < formats.size(); ++i) {
        core::Scenario s = llama2(2048);
        s.weights = formats[i];
        const core::EstimateWithFits fits = core::estimateWithFits(s, catalog, m.gpuIds);
        for (std::size_t j = 0; j < m.gpuIds.size(); ++j) {
            QCOMPARE(m.at(i, j).total, fits.estimate.total);
            QCOMPARE(m.at(i, j).maxSequence, fits.fits[j].maxSequence);
            QCOMPARE(m.at(i, j).fits, fits.fits[j].fits);
        }
    }
    // The longest context stops at the model's 4096 positions.
    QCOMPARE(m.at(1, column("rtx-4090")).maxSequence, 4096u);
}

void TestMatrix::exportsCarryEveryCell()
{
    const core::Catalog &catalog = core::io::builtinCatalog();
    const core::FormatMatrix m = core::formatMatrix(llama2(2048), catalog, core::defaultMatrixFormats(), {"rtx-4090"});
    const std::string csv = core::matrixCsv(m);
    QCOMPARE(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), 1 + core::defaultMatrixFormats().size());
    const std::string md = core::matrixMarkdown(llama2(2048), m, catalog, core::ReportMeta{});
    QVERIFY(md.find("| gguf-q4_k_m | 4,096 |") != std::string::npos);
    const std::string json = core::io::matrixToJson(m);
    QVERIFY(json.find("\"max_seq\": 4096") != std::string::npos);
}

VRAM_TEST_MAIN(tst_matrix, TestMatrix, Core)
#include "tst_matrix.moc"
