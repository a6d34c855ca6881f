// The main() of a folder's test executable (testregistry.h): runs the one
// test class its first argument names. Built with VRAM_TEST_WIDGETS for the
// executables whose classes need a QApplication.
#include "tests/support/testregistry.h"

#include <QCoreApplication>
#ifdef VRAM_TEST_WIDGETS
#include <QApplication>
#endif

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace testing {

namespace {

struct TestClass
{
    TestApp app;
    RunTestClass run;
};

std::map<std::string, TestClass> &testClasses()
{
    static std::map<std::string, TestClass> table;
    return table;
}

} // namespace

bool registerTestClass(const char *name, TestApp app, RunTestClass run)
{
    testClasses()[name] = {app, run};
    return true;
}

} // namespace testing

int main(int argc, char **argv)
{
    const auto &table = testing::testClasses();
    const auto found = argc > 1 ? table.find(argv[1]) : table.end();
    if (found == table.end()) {
        std::fprintf(stderr, "usage: %s TEST_CLASS [Qt Test options]; test classes:\n", argv[0]);
        for (const auto &entry : table)
            std::fprintf(stderr, "  %s\n", entry.first.c_str());
        return 2;
    }
    // Qt Test sees the class name as the program name, as it did when each
    // class was an executable of its own.
    std::vector<char *> args(argv + 1, argv + argc);
    args.push_back(nullptr);
    int count = argc - 1;
    std::unique_ptr<QCoreApplication> app;
    switch (found->second.app) {
    case testing::TestApp::None:
        break;
    case testing::TestApp::Core:
        app = std::make_unique<QCoreApplication>(count, args.data());
        break;
    case testing::TestApp::Widgets:
#ifdef VRAM_TEST_WIDGETS
        app = std::make_unique<QApplication>(count, args.data());
#else
        std::fprintf(stderr, "%s needs a QApplication; this executable has no widgets\n", argv[1]);
        return 2;
#endif
        break;
    }
    if (app)
        app->setAttribute(Qt::AA_Use96Dpi, true);
    return found->second.run(count, args.data());
}
