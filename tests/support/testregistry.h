#pragma once

// One test executable per folder, one CTest case per test class: each test
// file registers its class under the name CTest knows it by (tst_engine),
// and testmain.cpp runs the class named first on the command line, with
// Qt Test's own options after it:
//
//   tst_core tst_engine -v2 someTestFunction
//
// VRAM_TEST_MAIN replaces QTEST_APPLESS_MAIN, QTEST_GUILESS_MAIN and
// QTEST_MAIN; the application object (none, QCoreApplication or
// QApplication) is made before the test object, as those macros make it.

#include <QtTest>

namespace testing {

enum class TestApp { None, Core, Widgets };

using RunTestClass = int (*)(int argc, char **argv);

/// Adds a test class to the executable's table; returns true so that a
/// namespace-scope constant can call it before main().
bool registerTestClass(const char *name, TestApp app, RunTestClass run);

} // namespace testing

#define VRAM_TEST_MAIN(name, TestObject, app)                                                                          \
    namespace {                                                                                                        \
    int run##TestObject(int argc, char **argv)                                                                         \
    {                                                                                                                  \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    const bool registered##TestObject = testing::registerTestClass(#name, testing::TestApp::app, run##TestObject);     \
    }
