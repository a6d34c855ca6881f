// The built-in catalog and presets are compiled in as C++ tables written by
// vramplanner-tablegen. Here every entry is compared, member by member (the
// lists in core/tablegen/members.h), with what the JSON loaders read from
// resources/ now: a value the table writer encodes wrongly (a string escape,
// a double's last bit, an absent optional) or a stale generated file fails.

#include "tests/support/testregistry.h"
#include "core/io/builtin.h"
#include "core/io/catalogio.h"
#include "core/io/presets.h"
#include "core/tablegen/members.h"

#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

std::string resourceText(const char *name)
{
    std::ifstream in(std::string(VRAM_RESOURCES_DIR) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Compares one member and names it (and the entry) when it differs.
#define VERIFY_SAME(table, loaded, member)                                                                   \
    QVERIFY2((table).member == (loaded).member, qPrintable(QString::fromStdString(entry) + ": " #member " differs"))

} // namespace

class TestBuiltinTables : public QObject
{
    Q_OBJECT

private slots:
    void catalogTableEqualsLoadedFile();
    void presetTablesEqualLoadedFile();
};

void TestBuiltinTables::catalogTableEqualsLoadedFile()
{
    const auto loaded = core::io::loadCatalog(resourceText("gpus.json"));
    QVERIFY(loaded.ok());
    const std::vector<core::GpuSpec> &table = core::io::builtinCatalog().gpus;
    QCOMPARE(table.size(), loaded.value->gpus.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const core::GpuSpec &t = table[i];
        const core::GpuSpec &l = loaded.value->gpus[i];
        const std::string entry = "gpus[" + std::to_string(i) + "] " + l.id;
#define VRAM_CHECK(member) VERIFY_SAME(t, l, member);
        VRAM_GPU_MEMBERS(VRAM_CHECK)
#undef VRAM_CHECK
    }
}

void TestBuiltinTables::presetTablesEqualLoadedFile()
{
    const auto loaded = core::io::loadPresets(resourceText("models.json"));
    QVERIFY(loaded.ok());
    const std::vector<core::io::ModelPreset> &table = core::io::builtinPresets();
    QCOMPARE(table.size(), loaded.value->size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const core::io::ModelPreset &t = table[i];
        const core::io::ModelPreset &l = (*loaded.value)[i];
        const std::string entry = "models[" + std::to_string(i) + "] " + l.id;
#define VRAM_CHECK(member) VERIFY_SAME(t, l, member);
        VRAM_PRESET_MEMBERS(VRAM_CHECK)
#undef VRAM_CHECK
#define VRAM_CHECK(member) VERIFY_SAME(t, l, model.member);
        VRAM_MODEL_MEMBERS(VRAM_CHECK)
#undef VRAM_CHECK
    }
}

VRAM_TEST_MAIN(tst_builtintables, TestBuiltinTables, None)
#include "tst_builtintables.moc"
