#pragma once

// Marks an English string in core for Qt Linguist without linking Qt: the
// macro expands to the string itself, lupdate (which scans core too, see
// ui/CMakeLists.txt) collects it under `context`, and the window shows it
// through QCoreApplication::translate(context, text). The CLI stays English.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif
