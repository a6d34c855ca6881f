#pragma once

#include "core/lessons.h"
#include "core/units.h"

#include <QWidget>

class QTextBrowser;

namespace ui {

/// Shows a lesson: the question as the notes ask it, the answer, the
/// explanation, and each figure the answer states next to what the engine
/// computes for the lesson's scenario.
class LessonPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LessonPanel(QWidget *parent = nullptr);

    /// Byte figures in `unit`, the window's, like the lesson's own text.
    void showLesson(const core::Lesson &lesson, const core::Catalog &catalog, const QString &language,
                    core::ByteUnit unit);
    QString text() const;

private:
    QTextBrowser *m_view;
};

} // namespace ui
